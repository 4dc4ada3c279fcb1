/**
 * What every call on a prescription reads from its request besides its argument: the caller and
 * its `Idempotency-Key` (SPEC.md §5), and the receipt an appended event gets from the log.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ErxError } from '../../errors.js';
import type { CallContext } from '../../service/index.js';
import type { TransparencyLog } from '../../transparency/transparency-log.js';
import { requirePrincipal } from '../auth-hook.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/**
 * The call context: the caller and, when the call carries an `Idempotency-Key`, the key with a
 * fingerprint of the request (only then is there a first call to compare it with).
 */
export function callContext(request: FastifyRequest): CallContext {
  const principal = requirePrincipal(request);
  const key = request.headers['idempotency-key'];
  if (key === undefined) return { principal };
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new ErxError('bad_request', 'Idempotency-Key must be 1 to 200 visible ASCII characters.');
  }
  const body =
    typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null);
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(body)
    .digest('hex');
  return { principal, idempotency: { key, requestHash } };
}

/** The event a call appended, with its receipt when a checkpoint included it in time. */
export type Receipted = <T extends { id: string; signature?: string }>(
  view: T,
) => Promise<T & { receipt?: string }>;

/** {@link Receipted} over `log`. */
export function receiptedBy(log: TransparencyLog): Receipted {
  return async (view) => {
    const receipt = await log.receipt(view.id, view.signature);
    return receipt === undefined ? view : { ...view, receipt };
  };
}
