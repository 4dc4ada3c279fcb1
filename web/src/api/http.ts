/**
 * The one place the page talks to the service: same-origin fetch, the bearer token added when
 * given, and every non-2xx answer turned into an {@link ApiError} carrying the seed §7 body.
 */
import type { ErrorBody } from './types.js';

/** A refused call: HTTP status and, when the service sent one, its error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }

  /** `error_code` of the body (SPEC.md §8), or `network` when the service was not reached. */
  get code(): string {
    return this.body?.error_code ?? (this.status === 0 ? 'network' : 'unknown');
  }
}

/**
 * A token the screen can renew: when the service answers 401 (the token expired), {@link call}
 * asks `renew` for a new one (the screen asks the person to sign in again, keeping what it shows)
 * and sends the same request once more. `renew` rejects when the person declines.
 */
export interface RenewableToken {
  readonly value: string;
  /** A new token; `failed` is the one the service refused (another call may have renewed it). */
  renew(failed: string): Promise<string>;
}

/** A bearer token as the calls take it: fixed, or renewable by the screen. */
export type Token = string | RenewableToken;

export interface CallOptions {
  method?: 'GET' | 'POST';
  token?: Token | undefined;
  body?: string;
  contentType?: string;
  /** Sent as `Idempotency-Key` so that a repeated submission never acts twice (SPEC.md §5). */
  idempotencyKey?: string;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { error_code?: unknown }).error_code === 'string'
  );
}

/** Sends `path` once with `token`; throws {@link ApiError} unless 2xx. */
async function send(
  path: string,
  options: CallOptions,
  token: string | undefined,
): Promise<Response> {
  const headers = new Headers();
  if (token !== undefined) headers.set('authorization', `Bearer acs:${token}`);
  if (options.contentType !== undefined) headers.set('content-type', options.contentType);
  if (options.idempotencyKey !== undefined) headers.set('idempotency-key', options.idempotencyKey);
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'POST',
      headers,
      body: options.body ?? null,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, undefined);
  }
  if (response.ok) return response;
  let body: ErrorBody | undefined;
  try {
    const parsed: unknown = await response.json();
    body = isErrorBody(parsed) ? parsed : undefined;
  } catch {
    body = undefined;
  }
  throw new ApiError(response.status, body);
}

/**
 * Calls `path` on the service and returns the response; throws {@link ApiError} unless 2xx. With
 * a renewable token, a 401 renews it and sends the same request again (same body, same
 * `Idempotency-Key`); when the person declines, the 401 is thrown.
 */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const token = options.token;
  if (token === undefined || typeof token === 'string') return send(path, options, token);
  const used = token.value;
  try {
    return await send(path, options, used);
  } catch (failure) {
    if (!(failure instanceof ApiError) || failure.status !== 401) throw failure;
    let renewed: string;
    try {
      renewed = await token.renew(used);
    } catch {
      throw failure;
    }
    return send(path, options, renewed);
  }
}

/** Calls `path` and parses the JSON answer as `T`. */
export async function callJson<T>(path: string, options: CallOptions = {}): Promise<T> {
  const response = await call(path, options);
  return (await response.json()) as T;
}
