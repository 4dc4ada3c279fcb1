/**
 * Check 4 of SPEC.md §6 `logs_check_passed`: the last event's hash is the head hash stored with
 * the prescription, so a chain cut short (or extended) at its end is noticed.
 */
import type { CheckFailure } from './chain-failure.js';
import type { LedgerRecord } from './event.js';

/** Compares the hash of the last event with the stored head. */
export function checkHead(
  events: readonly LedgerRecord[],
  headHash: string,
): CheckFailure | undefined {
  const last = events[events.length - 1];
  return last !== undefined && last.hash === headHash
    ? undefined
    : { check: 'head', reason: 'head_mismatch' };
}
