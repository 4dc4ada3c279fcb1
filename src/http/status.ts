/**
 * The one map from error code to HTTP status (STYLE.md point 3). A code without a status does
 * not compile.
 */
import type { ErrorCode } from '../errors.js';

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  locked: 423,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  service_unavailable: 503,
  internal_error: 500,
});

/** The error code that answers a given HTTP status (used for errors raised by Fastify itself). */
export function codeForStatus(status: number): ErrorCode {
  for (const [code, value] of Object.entries(HTTP_STATUS)) {
    if (value === status) return code as ErrorCode;
  }
  return status >= 500 ? 'internal_error' : 'bad_request';
}
