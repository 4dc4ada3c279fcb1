/**
 * What a figure may count: calls erx served. A refused call (403 `quantity_exceeded` or `expired`,
 * 409, 400 at `/Dt`) means the bench sent what a real client would not, and a figure that counted
 * it would measure how fast erx says no; so the bench stops there, loudly, instead of reporting it.
 */
import type { ClosedLoopResult } from './closed-loop-protocol.js';

function isServed(status: string): boolean {
  return /^2\d\d$/.test(status);
}

function isRefused(status: string): boolean {
  return /^4\d\d$/.test(status);
}

function describe(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
}

/** The answers of a closed-loop run, warm-up included, that were not 2xx, by status. */
export function unservedAnswers(result: ClosedLoopResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const statuses of [result.warmupStatusCounts, result.statusCounts]) {
    for (const [status, count] of Object.entries(statuses)) {
      if (!isServed(status) && count > 0) counts[status] = (counts[status] ?? 0) + count;
    }
  }
  return counts;
}

/**
 * Throws unless every answer of a closed-loop run, warm-up included, was 2xx; `hint` says what
 * the bench may have got wrong.
 */
export function requireServed(label: string, result: ClosedLoopResult, hint = ''): void {
  const unserved = unservedAnswers(result);
  const total = result.non2xx + result.warmupNon2xx;
  if (total === 0 && Object.keys(unserved).length === 0) return;
  const detail = Object.keys(unserved).length > 0 ? describe(unserved) : `${total} non-2xx`;
  throw new Error(`${label}: answers other than 2xx (${detail})${hint === '' ? '' : `; ${hint}`}`);
}

/**
 * Throws when an answer of a closed-loop run, warm-up included, did not have in its body what its
 * job expected (`expectInBody`); `what` names it, e.g. "a receipt".
 */
export function requireBodies(label: string, result: ClosedLoopResult, what: string): void {
  if (result.bodyMismatches === 0) return;
  throw new Error(`${label}: ${result.bodyMismatches} answers not as expected (${what})`);
}

/**
 * Throws when an open-loop run got any 4xx answer. Its 503s (load shedding) and timeouts are what
 * it measures of an overloaded erx; a 4xx is a call erx refused.
 */
export function requireNoRefusals(
  label: string,
  statusCounts: Readonly<Record<string, number>>,
): void {
  const refused = Object.fromEntries(
    Object.entries(statusCounts).filter(([status, count]) => isRefused(status) && count > 0),
  );
  if (Object.keys(refused).length > 0)
    throw new Error(`${label}: refused calls (${describe(refused)})`);
}
