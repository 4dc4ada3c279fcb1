/** What the verify answer's events say about one another (SPEC.md §7). */
import type { VerifyResult } from '../api/types.js';

/** Ids of the events undone by a cancel event (SPEC.md §7: `event_data.EventId`). */
export function cancelledEventIds(result: VerifyResult): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const e of result.events ?? []) {
    const target = e.event_data.EventId;
    if (e.type === 'cancel' && typeof target === 'string') ids.add(target);
  }
  return ids;
}

/**
 * What each full dispensation handed out, by event id (SPEC.md §10): it takes every medicament
 * to its prescribed quantity, counted from the dispensations that stood when it was made, and that
 * count stays fixed when an earlier one is cancelled later. Medicaments it took nothing of are
 * left out, so a full dispensation after everything was dispensed hands out an empty list.
 */
export function fullDispensationItems(
  result: VerifyResult,
): ReadonlyMap<string, readonly { id: string; amount: number }[]> {
  const prescribed = (result.medicaments ?? []).map((m) => [m.id, m.prescribed] as const);
  const counted = new Map<string, number>();
  const handed = new Map<string, { id: string; amount: number }[]>();
  const amountsOf = new Map<string, readonly { id: string; amount: number }[]>();
  const add = (items: readonly { id: string; amount: number }[], sign: number): void => {
    for (const item of items) {
      counted.set(item.id, (counted.get(item.id) ?? 0) + sign * item.amount);
    }
  };
  for (const e of result.events ?? []) {
    if (e.type === 'partial_dispense' || (e.type === 'full_dispense' && e.dispenses?.length)) {
      const items = e.dispenses ?? [];
      amountsOf.set(e.id, items);
      add(items, 1);
    } else if (e.type === 'full_dispense') {
      const items = prescribed
        .map(([id, total]) => ({ id, amount: Math.max(0, total - (counted.get(id) ?? 0)) }))
        .filter((item) => item.amount > 0);
      handed.set(e.id, items);
      amountsOf.set(e.id, items);
      add(items, 1);
    } else if (e.type === 'cancel') {
      const target = e.event_data.EventId;
      const items = typeof target === 'string' ? amountsOf.get(target) : undefined;
      if (items !== undefined) add(items, -1);
    }
  }
  return handed;
}
