/** The error body of seed §7, the only shape erx ever answers an error with (SPEC.md §8). */
import type { ErrorBody } from '../api/index.js';
import type { ErrorCode, Violation, ViolationParams } from '../errors.js';
import { HTTP_STATUS } from './status.js';
import type { Trace } from './trace.js';

/**
 * Most violations answered. A 30 KiB dispense body of 10,000 empty items has 20,000 violations,
 * which would answer 1.5 MB: fifty times the request. Any real document has far fewer.
 */
export const MAX_VIOLATIONS = 100;

/** Builds the body for `code` with a fixed client message; `causeCode` fills `cause.Code`. */
export function errorBody(
  code: ErrorCode,
  message: string,
  trace: Trace,
  causeCode: string = code,
  violations?: readonly Violation[],
  params?: ViolationParams,
): ErrorBody {
  const body: ErrorBody = {
    error_code: code,
    message,
    trace,
    cause: { StatusCode: HTTP_STATUS[code], Message: message, Code: causeCode, Trace: trace },
  };
  if (violations && violations.length > 0) body.violations = violations.slice(0, MAX_VIOLATIONS);
  if (params !== undefined) body.params = params;
  return body;
}
