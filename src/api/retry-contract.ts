/**
 * The published retry contract: for each answer a client can meet, whether it retries, after how
 * long and with which `Idempotency-Key` (SPEC.md §5, §8). One table, as data: the OpenAPI
 * description and the README render it, and the CLI's service client decides by it, so the three
 * cannot drift apart.
 */

/** What a client met: an HTTP status, or no answer at all (reset, refused, timed out). */
export type Outcome = number | 'no_answer';

/** Whether a client retries: never, up to the bound, or once only. */
export type Retry = 'no' | 'yes' | 'once';

/** How long it waits first: not at all, `Retry-After`, or exponential back-off with jitter. */
export type Wait = 'none' | 'retry_after' | 'backoff';

/** One row of the contract. */
export interface RetryRule {
  /** The statuses the row covers (`no_answer`: no answer came). */
  readonly outcomes: readonly Outcome[];
  /** How the row's answers are named in the table. */
  readonly label: string;
  readonly retry: Retry;
  readonly wait: Wait;
  /** Why, in a few words, for the table. */
  readonly why: string;
}

/** Attempts of one call in all, the first included. */
export const MAX_ATTEMPTS = 4;
/** A `Retry-After` longer than this (seconds) is not waited for: the client gives up and says so. */
export const MAX_RETRY_AFTER_S = 10;
/** The back-off before the 2nd, 3rd and 4th attempt (ms), each scaled by a jitter of 50–100 %. */
export const BACKOFF_MS: readonly number[] = Object.freeze([250, 500, 1000]);
/** The wait on a 429 or 503 that carries no readable `Retry-After` (seconds). */
export const DEFAULT_RETRY_AFTER_S = 1;

/** The contract, row by row; the first row whose outcomes hold a status decides. */
export const RETRY_CONTRACT: readonly RetryRule[] = Object.freeze([
  {
    outcomes: [200, 201, 204],
    label: '2xx',
    retry: 'no',
    wait: 'none',
    why: 'done; a repeat with the same key answers the first answer',
  },
  {
    outcomes: [400, 401, 403, 404, 409, 413, 415, 423],
    label: '400, 401, 403, 404, 409, 413, 415, 423',
    retry: 'no',
    wait: 'none',
    why: 'the request or the state must change first (a new token, another key, an unlock)',
  },
  {
    outcomes: [429],
    label: '429',
    retry: 'yes',
    wait: 'retry_after',
    why: 'over the rate limit; nothing was done',
  },
  {
    outcomes: [503],
    label: '503',
    retry: 'yes',
    wait: 'retry_after',
    why: 'at capacity, or the store or token service is down; nothing was done',
  },
  {
    outcomes: ['no_answer', 502, 504],
    label: 'no answer (reset, timeout), 502, 504',
    retry: 'yes',
    wait: 'backoff',
    why: 'the first call may have been carried out: only the same key makes the retry safe',
  },
  {
    outcomes: [500],
    label: '500',
    retry: 'once',
    wait: 'backoff',
    why: 'unexpected; one more try, then report it',
  },
]);

/** The rule for `outcome`: its row, else "no retry" for any other 4xx and "once" for other 5xx. */
export function retryRuleFor(outcome: Outcome): RetryRule {
  const row = RETRY_CONTRACT.find((rule) => rule.outcomes.includes(outcome));
  if (row !== undefined) return row;
  const fallback = typeof outcome === 'number' && outcome >= 500 ? 500 : 400;
  return RETRY_CONTRACT.find((rule) => rule.outcomes.includes(fallback)) as RetryRule;
}

const RETRY_TEXT: Readonly<Record<Retry, string>> = {
  no: 'no',
  yes: `yes, up to ${MAX_ATTEMPTS} attempts in all`,
  once: 'once',
};

const WAIT_TEXT: Readonly<Record<Wait, string>> = {
  none: '—',
  retry_after: `\`Retry-After\` seconds (${DEFAULT_RETRY_AFTER_S} s if absent; over ${MAX_RETRY_AFTER_S} s: give up)`,
  backoff: `back-off ${BACKOFF_MS.map((ms) => `${ms / 1000} s`).join(', ')}, with jitter`,
};

/** The contract as a markdown table (status, retry?, when, same `Idempotency-Key`?, why). */
export function retryContractTable(): string {
  const rows = RETRY_CONTRACT.map((rule) => {
    const sameKey = rule.retry === 'no' ? '—' : 'yes';
    return `| ${rule.label} | ${RETRY_TEXT[rule.retry]} | ${WAIT_TEXT[rule.wait]} | ${sameKey} | ${rule.why} |`;
  });
  return [
    '| answer | retry? | when | same `Idempotency-Key`? | why |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The "Retries" section of the OpenAPI description (markdown). */
export function retryContractMarkdown(): string {
  return [
    '## Retries',
    '',
    'Every mutating call (create, dispense, lock, unlock, cancel, revoke) accepts an ' +
      '`Idempotency-Key`; a client sends one with each and keeps it across the retries of that ' +
      'call, so a retry never records twice. Any other status is read as its class: another 4xx ' +
      'as the 4xx row, another 5xx as 500.',
    '',
    retryContractTable(),
  ].join('\n');
}
