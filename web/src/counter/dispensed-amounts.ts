/** What the verify answer's events say about one another (SPEC.md §7). */
import { EVENT_KINDS } from '../../../src/ledger/event-kinds.js';
import { handedOut } from '../../../src/service/handed-out.js';
import type { VerifyResult } from '../api/types.js';

/** Ids of the events undone by a cancel event (SPEC.md §7: `event_data.EventId`). */
export function cancelledEventIds(result: VerifyResult): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const e of result.events ?? []) {
    const target = e.event_data.EventId;
    if (EVENT_KINDS[e.type].fold === 'cancel' && typeof target === 'string') ids.add(target);
  }
  return ids;
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
