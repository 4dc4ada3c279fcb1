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
