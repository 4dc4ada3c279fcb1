/**
 * The client commands' connection to a running erx (`ERX_URL`, token from `ERX_TOKEN`). Error
 * answers (seed §7 shape) become one-line messages; violations follow, one per line. Calls are
 * retried as the published retry contract says (`src/api/retry-contract.ts`), a mutating call
 * with the same `Idempotency-Key` on every attempt.
 */
import type { ErrorBody } from '../api/index.js';
import { REAL_TIMING, attemptFetch, retrying } from '../../client/retry.js';
import type { RetryTiming } from '../../client/retry.js';
import type { Config } from '../config/index.js';
import { ErxError, ERROR_CODES } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { CliUsageError } from './usage-error.js';
import { terminalJson, terminalText } from './terminal-text.js';

export { retryAfterSeconds } from '../../client/retry.js';
export type { RetryTiming } from '../../client/retry.js';

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

export interface CallResult {
  status: number;
  contentType: string;
  body: Buffer;
}

function asErrorCode(value: unknown): ErrorCode {
  return ERROR_CODES.includes(value as ErrorCode) ? (value as ErrorCode) : 'internal_error';
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

/**
 * Calls `path` on the service; resolves for 2xx, throws an ErxError carrying the last answer
 * otherwise. Retries as the retry contract says: at most `MAX_ATTEMPTS` attempts, after
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
  const url = new URL(path, config.serviceUrl);
  const init: RequestInit = { method, headers, body: options.body };
  const { last, attempts } = await retrying(
    () => attemptFetch(fetch, url, init, ANSWER_TIMEOUT_MS),
    timing,
  );
  if ('failure' in last) {
    const error = new ErxError(
      'service_unavailable',
      `cannot reach erx at ${config.serviceUrl} (set ERX_URL)`,
      { detail: last.failure },
    );
    throw giveUp(error, attempts, options.idempotencyKey);
  }
  const body = Buffer.from(last.body);
  if (!last.response.ok) {
    throw giveUp(answerError(last.response.status, body), attempts, options.idempotencyKey);
  }
  const contentType = last.response.headers.get('content-type') ?? '';
  return { status: last.response.status, contentType, body };
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
    process.stdout.write(`${terminalJson(JSON.parse(text), 2)}\n`);
  } catch {
    process.stdout.write(`${terminalText(text, true)}\n`);
  }
}
