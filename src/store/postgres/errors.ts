/**
 * How the PostgreSQL store reads the errors of `pg`: which mean "the database cannot answer right
 * now" (a 503 with `Retry-After`, SPEC.md §8; the pool reconnects by itself) and which unique
 * constraint a violation names. Nothing here reaches a client but the fixed message; the driver's
 * error goes to `detail`, for the log.
 */
import { ErxError } from '../../errors.js';

/** Socket-level failures reported by Node while connecting or talking to the server. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say the server, not the request, is the problem: shutdown and crash recovery
 * (57P01–57P03), a statement or lock wait cut off by `statement_timeout` (57014), a session ended
 * by `idle_in_transaction_session_timeout` (25P03), serialisation and deadlock aborts (40001,
 * 40P01) and lock waits that gave up (55P03). Classes 08 (connection) and 53 (resources, e.g. too
 * many connections) are matched by prefix.
 */
const TRANSIENT_SQLSTATES: ReadonlySet<string> = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '25P03',
  '40001',
  '40P01',
  '55P03',
]);

/** Errors the driver raises without a code when a connection is gone or never came. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Query read timeout',
  'Cannot use a pool after calling end on the pool',
];

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` means PostgreSQL cannot be reached or cannot serve now (retry later). */
export function isUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = codeOf(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || TRANSIENT_SQLSTATES.has(code)) return true;
    if (code.length === 5 && (code.startsWith('08') || code.startsWith('53'))) return true;
  }
  if (DRIVER_MESSAGES.some((m) => error.message.includes(m))) return true;
  // Node reports a refused dual-stack connect as an AggregateError of one error per address.
  if (error instanceof AggregateError && error.errors.some((e) => isUnavailable(e, depth + 1))) {
    return true;
  }
  return isUnavailable(error.cause, depth + 1);
}

/** The client-facing form of an {@link isUnavailable} error. */
export function unavailable(error: unknown): ErxError {
  return new ErxError('service_unavailable', 'The database is not available.', {
    retryAfter: 1,
    detail: {
      engine: 'postgres',
      code: codeOf(error),
      error: error instanceof Error ? error.message : String(error),
    },
  });
}

/** The constraint a unique violation (SQLSTATE 23505) names, else undefined. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  if (codeOf(error) !== '23505') return undefined;
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === 'string' ? constraint : undefined;
}
