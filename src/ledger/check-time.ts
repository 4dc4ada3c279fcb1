/**
 * The time check of SPEC.md §6 `logs_check_passed`, per event after the create event: time never
 * runs backwards along a chain. Each event's `timestamp` is at or after its predecessor's (equal is
 * allowed), so every event is at or after the create event. Without it, a leaf key that signed in
 * the past could add an event dated inside that leaf's old window, before what the chain records.
 */
import type { CheckFailure } from './chain-failure.js';
import type { EventBody } from './event.js';
import { parseTimestamp } from './timestamp.js';

/** Checks that `body` is dated at or after `predecessor` (both passed check 1: valid timestamps). */
export function checkTime(
  body: EventBody,
  predecessor: EventBody | undefined,
): CheckFailure | undefined {
  if (predecessor === undefined) return undefined;
  const at = parseTimestamp(body.timestamp).epochNanos;
  if (at < parseTimestamp(predecessor.timestamp).epochNanos) {
    return { check: 'time', reason: 'timestamp_decreases' };
  }
  return undefined;
}
