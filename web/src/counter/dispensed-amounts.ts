/** What the verify answer's events say about one another (SPEC.md §7). */
import { EVENT_KINDS } from '../../../src/ledger/event-kinds.js';
import { cancelledIn } from '../../../src/service/rules/cancel-chains.js';
import { handedOut } from '../../../src/service/rules/handed-out.js';
import type { VerifyResult } from '../api/types.js';

/**
 * Ids of the events undone now (SPEC.md §5, §7: `event_data.EventId`), following cancels of
 * cancels with the service's own fold.
 */
export function cancelledEventIds(result: VerifyResult): ReadonlySet<string> {
  return cancelledIn(result.events ?? []).cancelled;
}

/**
 * What each full dispensation handed out, by event id (SPEC.md §10), counted by the service's own
 * rule ({@link handedOut}); medicaments it took nothing of are left out, so a full dispensation
 * after everything was dispensed hands out an empty list.
 */
export function fullDispensationItems(
  result: VerifyResult,
): ReadonlyMap<string, readonly { id: string; amount: number }[]> {
  const events = result.events ?? [];
  const handed = handedOut(events, result.medicaments ?? []);
  const items = new Map<string, { id: string; amount: number }[]>();
  for (const e of events) {
    const amounts = EVENT_KINDS[e.type].fold === 'dispense_rest' ? handed.get(e.id) : undefined;
    if (amounts === undefined) continue;
    items.set(
      e.id,
      [...amounts].filter(([, amount]) => amount > 0).map(([id, amount]) => ({ id, amount })),
    );
  }
  return items;
}
