/**
 * The client commands' connection to a running erx (`ERX_URL`, token from `ERX_TOKEN`). Error
 * answers (seed §7 shape) become one-line messages; violations follow, one per line. Calls are
 * retried as the published retry contract says (`src/api/retry-contract.ts`), a mutating call
 * with the same `Idempotency-Key` on every attempt.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ErrorBody } from '../api/index.js';
import {
  BACKOFF_MS,
  DEFAULT_RETRY_AFTER_S,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_S,
  retryRuleFor,
} from '../api/retry-contract.js';
import type { Outcome } from '../api/retry-contract.js';
import type { Config } from '../config/index.js';
import { ErxError, ERROR_CODES } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { CliUsageError } from './usage-error.js';
import { withTimeLimit } from '../time-limit.js';

/** How long one attempt waits for its answer before it counts as no answer. */
const ANSWER_TIMEOUT_MS = 30_000;

export interface CallOptions {
  body?: string;
  contentType?: string;
  /** Send `Authorization: Bearer acs:<ERX_TOKEN>`; fails early when ERX_TOKEN is unset. */
  auth?: boolean | 'optional';
  headers?: Record<string, string>;
  /** Sent as `Idempotency-Key` on every attempt (a mutating call must carry one). */
  idempotencyKey?: string;
}

/** What the retries wait with; tests pass their own. */
export interface RetryTiming {
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random(): number;
}

const REAL_TIMING: RetryTiming = { sleep: (ms) => delay(ms), random: Math.random };

export interface CallResult {
  status: number;
  contentType: string;
  body: Buffer;
}

function asErrorCode(value: unknown): ErrorCode {
  return ERROR_CODES.includes(value as ErrorCode) ? (value as ErrorCode) : 'internal_error';
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date); the default if unreadable. */
export function retryAfterSeconds(value: string | null, now: number): number {
  if (value === null) return DEFAULT_RETRY_AFTER_S;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_S : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The error an answer that is not 2xx becomes. */
export function answerError(status: number, body: Buffer): ErxError {
  // An answer that is not the error shape (a proxy's, say) is read for what it has.
  let parsed: Partial<ErrorBody> = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    // not the error shape: report the status alone
  }
  const code = asErrorCode(parsed.error_code);
  const message = typeof parsed.message === 'string' ? parsed.message : `HTTP ${status}`;
  return new ErxError(code, `${status} ${code}: ${message}`, { violations: parsed.violations });
}

/** One attempt: the answer, or the error of no answer. */
async function attempt(
  config: Config,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ response: Response; body: Buffer } | { failure: unknown }> {
  try {
    return await withTimeLimit(ANSWER_TIMEOUT_MS, async (signal) => {
      const response = await fetch(new URL(path, config.serviceUrl), {
        method,
        headers,
        body,
        signal,
      });
      return { response, body: Buffer.from(await response.arrayBuffer()) };
    });
  } catch (failure) {
    return { failure };
  }
}

/**
 * Calls `path` on the service; resolves for 2xx, throws an ErxError carrying the last answer
 * otherwise. Retries as the retry contract says: at most {@link MAX_ATTEMPTS} attempts, after
 * `Retry-After` on 429 and 503 and after a back-off with jitter when no answer came; never on a
 * 4xx.
 */
export async function callService(
  config: Config,
  method: string,
  path: string,
  options: CallOptions = {},
  timing: RetryTiming = REAL_TIMING,
): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) {
    if (config.token === undefined && options.auth === true) {
      throw new CliUsageError(
        'set ERX_TOKEN to a token (erx token --client-id … --client-secret …)',
      );
    }
    if (config.token !== undefined) headers.authorization = `Bearer acs:${config.token}`;
  }
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  let retriesOf500 = 0;
  for (let n = 1; ; n += 1) {
    const got = await attempt(config, method, path, headers, options.body);
    const outcome: Outcome = 'failure' in got ? 'no_answer' : got.response.status;
    if (!('failure' in got) && got.response.ok) {
      const contentType = got.response.headers.get('content-type') ?? '';
      return { status: got.response.status, contentType, body: got.body };
    }
    const error =
      'failure' in got
        ? new ErxError(
            'service_unavailable',
            `cannot reach erx at ${config.serviceUrl} (set ERX_URL)`,
            { detail: got.failure },
          )
        : answerError(got.response.status, got.body);
    const rule = retryRuleFor(outcome);
    const retry = rule.retry === 'yes' || (rule.retry === 'once' && retriesOf500 === 0);
    if (!retry || n >= MAX_ATTEMPTS) throw giveUp(error, n, options.idempotencyKey);
    if (rule.retry === 'once') retriesOf500 += 1;
    if (rule.wait === 'retry_after' && !('failure' in got)) {
      const seconds = retryAfterSeconds(got.response.headers.get('retry-after'), Date.now());
      if (seconds > MAX_RETRY_AFTER_S) throw giveUp(error, n, options.idempotencyKey);
      await timing.sleep(seconds * 1000);
    } else {
      const base = BACKOFF_MS[Math.min(n - 1, BACKOFF_MS.length - 1)] ?? 0;
      await timing.sleep(Math.round(base * (0.5 + timing.random() / 2)));
    }
  }
}

/**
 * The last error, saying how many attempts it took and, for a mutating call, the key to retry it
 * with by hand (a new key could record the call twice if the first was carried out).
 */
function giveUp(error: ErxError, attempts: number, key: string | undefined): ErxError {
  if (attempts === 1 && (key === undefined || error.code !== 'service_unavailable')) return error;
  const tried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  const again = key === undefined ? '' : `; retry with --idempotency-key ${key}`;
  return new ErxError(error.code, `${error.message}${tried}${again}`, {
    violations: error.violations,
    detail: error.detail,
  });
}

/** Prints a JSON answer pretty. */
export function printJson(result: CallResult): void {
  const text = result.body.toString('utf8');
  try {
    process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  } catch {
    process.stdout.write(`${text}\n`);
  }
}
