/**
 * `Idempotency-Key` (SPEC.md §5): a repeat with the same key and actor within 24 h answers the
 * first answer and appends nothing; the same key with a different request is a 409.
 */
import { ErxError } from '../errors.js';
import type { IdempotencyRow } from '../store/types.js';
import type { ServiceDeps } from './deps.js';
import type { CallContext } from './types.js';

/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The remembered first call this one repeats, if any (409 if the key was used for another). */
export async function replayOf(
  deps: ServiceDeps,
  ctx: CallContext,
): Promise<IdempotencyRow | undefined> {
  if (ctx.idempotency === undefined) return undefined;
  const row = await deps.store.getIdempotency(ctx.principal.sub, ctx.idempotency.key);
  if (!row) return undefined;
  if (row.createdAt < deps.clock.now() - IDEMPOTENCY_WINDOW_MS) {
    // Expired: forget it (and every other expired key) so the key can be used afresh.
    await deps.store.purgeIdempotency(deps.clock.now() - IDEMPOTENCY_WINDOW_MS);
    return undefined;
  }
  if (row.requestHash !== ctx.idempotency.requestHash) {
    throw new ErxError('conflict', 'This Idempotency-Key was used for a different request.', {
      causeCode: 'idempotency_key_reused',
    });
  }
  return row;
}

/** The record to store with the event when the call carries a key. */
export function idempotencyRow(
  deps: ServiceDeps,
  ctx: CallContext,
  prescriptionId: string,
  eventId: string,
  answer?: string,
): IdempotencyRow | undefined {
  if (ctx.idempotency === undefined) return undefined;
  const row: IdempotencyRow = {
    actor: ctx.principal.sub,
    key: ctx.idempotency.key,
    requestHash: ctx.idempotency.requestHash,
    prescriptionId,
    eventId,
    createdAt: deps.clock.now(),
  };
  if (answer !== undefined) row.answer = answer;
  return row;
}
