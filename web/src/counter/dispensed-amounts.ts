/** Packs dispensed so far per prescribed medicament, from the verify answer (seed §2.4). */
import type { VerifyResult } from '../api/types.js';

/** Sum of non-cancelled partial dispensations per `medicine_id` (substitutes count for it). */
export function dispensedAmounts(result: VerifyResult): ReadonlyMap<string, number> {
  const totals = new Map<string, number>();
  for (const p of result.partial_dispensations ?? []) {
    totals.set(p.medicine_id, (totals.get(p.medicine_id) ?? 0) + p.amount);
  }
  return totals;
}

/** Ids of the events undone by a cancel event (SPEC.md §7: `event_data.EventId`). */
export function cancelledEventIds(result: VerifyResult): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const e of result.events ?? []) {
    const target = e.event_data.EventId;
    if (e.type === 'cancel' && typeof target === 'string') ids.add(target);
  }
  return ids;
}
