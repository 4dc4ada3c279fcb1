/**
 * erx's published retry contract carried out (`src/api/retry-contract.ts`, SPEC.md §5, §8): at
 * most `MAX_ATTEMPTS` attempts of one call, after `Retry-After` on 429 and 503, after a back-off
 * with jitter when no answer came or on 502/504, once more on a 500, never on another 4xx. The
 * caller sends the same `Idempotency-Key` on every attempt of a mutating call. Used by the shipped
 * client and the CLI alike; free of Node's modules, so it runs in a browser too.
 */
import {
  BACKOFF_MS,
  DEFAULT_RETRY_AFTER_S,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_S,
  retryRuleFor,
} from '../src/api/retry-contract.js';
import type { Outcome } from '../src/api/retry-contract.js';

/** What the retries wait with; tests pass their own. */
export interface RetryTiming {
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random(): number;
}

export const REAL_TIMING: RetryTiming = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** One attempt: the answer read whole, or what stood in for it (reset, refused, timed out). */
export type Attempt =
  { readonly response: Response; readonly body: Uint8Array } | { readonly failure: unknown };

/** How a call ended: its last attempt (a 2xx, or the one given up on) and how many there were. */
export interface Settled {
  readonly last: Attempt;
  readonly attempts: number;
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date); the default if unreadable. */
export function retryAfterSeconds(value: string | null, now: number): number {
  if (value === null) return DEFAULT_RETRY_AFTER_S;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_S : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The back-off before attempt `n + 1` (ms), scaled by a jitter of 50–100 %. */
export function backoffMs(n: number, timing: RetryTiming): number {
  const base = BACKOFF_MS[Math.min(n - 1, BACKOFF_MS.length - 1)] ?? 0;
  return Math.round(base * (0.5 + timing.random() / 2));
}

/** One attempt of `init` at `url` with `fetchFn`, read whole, given up after `timeoutMs`. */
export async function attemptFetch(
  fetchFn: typeof fetch,
  url: URL,
  init: RequestInit,
  timeoutMs: number,
): Promise<Attempt> {
  try {
    const response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { response, body: new Uint8Array(await response.arrayBuffer()) };
  } catch (failure) {
    return { failure };
  }
}

/** Runs `attempt` until it answers 2xx or the contract says to stop. */
export async function retrying(
  attempt: () => Promise<Attempt>,
  timing: RetryTiming = REAL_TIMING,
): Promise<Settled> {
  let retriesOf500 = 0;
  for (let n = 1; ; n += 1) {
    const got = await attempt();
    if (!('failure' in got) && got.response.ok) return { last: got, attempts: n };
    const outcome: Outcome = 'failure' in got ? 'no_answer' : got.response.status;
    const rule = retryRuleFor(outcome);
    const retry = rule.retry === 'yes' || (rule.retry === 'once' && retriesOf500 === 0);
    if (!retry || n >= MAX_ATTEMPTS) return { last: got, attempts: n };
    if (rule.retry === 'once') retriesOf500 += 1;
    if (rule.wait === 'retry_after' && !('failure' in got)) {
      const seconds = retryAfterSeconds(got.response.headers.get('retry-after'), Date.now());
      if (seconds > MAX_RETRY_AFTER_S) return { last: got, attempts: n };
      await timing.sleep(seconds * 1000);
    } else {
      await timing.sleep(backoffMs(n, timing));
    }
  }
}
