/**
 * The client commands' connection to a running erx (`ERX_URL`, token from `ERX_TOKEN`). Error
 * answers (seed §7 shape) become one-line messages; violations follow, one per line.
 */
import type { ErrorBody } from '../api/index.js';
import type { Config } from '../config/index.js';
import { ErxError, ERROR_CODES } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { CliUsageError } from './usage-error.js';

export interface CallOptions {
  body?: string;
  contentType?: string;
  /** Send `Authorization: Bearer acs:<ERX_TOKEN>`; fails early when ERX_TOKEN is unset. */
  auth?: boolean | 'optional';
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  contentType: string;
  body: Buffer;
}

function asErrorCode(value: unknown): ErrorCode {
  return ERROR_CODES.includes(value as ErrorCode) ? (value as ErrorCode) : 'internal_error';
}

/** Calls `path` on the service; resolves for 2xx, throws an ErxError carrying the answer otherwise. */
export async function callService(
  config: Config,
  method: string,
  path: string,
  options: CallOptions = {},
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
  let response: Response;
  try {
    response = await fetch(new URL(path, config.serviceUrl), {
      method,
      headers,
      body: options.body,
    });
  } catch (error) {
    throw new ErxError(
      'service_unavailable',
      `cannot reach erx at ${config.serviceUrl} (set ERX_URL)`,
      {
        detail: error,
      },
    );
  }
  const body = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? '';
  if (response.ok) return { status: response.status, contentType, body };
  // An answer that is not the error shape (a proxy's, say) is read for what it has.
  let parsed: Partial<ErrorBody> = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
  } catch {
    // not the error shape: report the status alone
  }
  const code = asErrorCode(parsed.error_code);
  const message = typeof parsed.message === 'string' ? parsed.message : `HTTP ${response.status}`;
  throw new ErxError(code, `${response.status} ${code}: ${message}`, {
    violations: parsed.violations,
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
