/**
 * `Idempotency-Key` (SPEC.md §5): a repeat with the same key and actor within 24 h answers the
 * first answer and appends nothing; the same key with a different request is a 409. The remembered
 * call names the event it appended by columns anyone with database access can change, so the
 * event is checked before it is answered: the signed event on the call's own prescription, by the
 * caller, of the call's operation (docs/decisions.md "A replay answers only its own event").
 */
import { ErxError } from '../../errors.js';
import { checkEventHash } from '../../ledger/index.js';
import type { EventBody, EventType } from '../../ledger/index.js';
import type { ChainState, IdempotencyRow } from '../../store/types.js';
import type { ServiceDeps } from '../deps.js';
import type { CallContext } from '../types.js';

/** How long a key is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The remembered first call this one repeats, if any (409 if the key was used for another). */
export async function replayOf(
  deps: ServiceDeps,
  ctx: CallContext,
): Promise<IdempotencyRow | undefined> {
  if (ctx.idempotency === undefined) return undefined;
  const row = await deps.store.idempotency.get(ctx.principal.sub, ctx.idempotency.key);
  if (!row) return undefined;
  if (row.createdAt < deps.clock.now() - IDEMPOTENCY_WINDOW_MS) {
    // Expired: forget it (and every other expired key) so the key can be used afresh.
    await deps.store.idempotency.purge(deps.clock.now() - IDEMPOTENCY_WINDOW_MS);
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

/** What the first call of a repeated one appended, by the call: where, and of which types. */
export interface ReplayTarget {
  /** The prescription the call names (its URL's, or the created document's id). */
  readonly prescriptionId: string;
  /** The event types the operation appends. */
  readonly types: readonly EventType[];
}

/** The event a remembered call appended, checked, in its chain as stored now. */
export interface ReplayedEvent {
  readonly state: ChainState;
  readonly index: number;
  readonly body: EventBody;
}

/** The refusal of a repeat whose remembered call does not name its own signed event. */
function foreignReplay(reason: string): ErxError {
  return new ErxError(
    'conflict',
    'The call remembered for this Idempotency-Key does not match this call’s signed event; ' +
      'nothing was changed. Look at the prescription’s events before sending the call again.',
    { causeCode: 'ledger_corrupt', detail: { check: 'idempotency', reason } },
  );
}

/**
 * The event `first` remembers, when it is the signed event of `target`'s prescription, by the
 * caller, of one of `target`'s types; else a 409 `ledger_corrupt` (a refusal: nothing changes).
 */
export async function replayedEvent(
  deps: ServiceDeps,
  ctx: CallContext,
  first: IdempotencyRow,
  target: ReplayTarget,
): Promise<ReplayedEvent> {
  if (first.prescriptionId !== target.prescriptionId) throw foreignReplay('wrong_prescription');
  const state = (await deps.store.readChain(target.prescriptionId))?.state;
  const index = state?.events.findIndex((e) => e.id === first.eventId) ?? -1;
  const row = state?.events[index];
  if (state === undefined || row === undefined) throw foreignReplay('no_such_event');
  const read = checkEventHash(row, target.prescriptionId);
  if (!read.ok) throw foreignReplay(read.reason);
  const failure = await deps.verifier.verify(row, read.body);
  if (failure !== undefined) throw foreignReplay(failure.reason);
  if (read.body.actor !== ctx.principal.sub) throw foreignReplay('wrong_actor');
  if (!target.types.includes(read.body.type)) throw foreignReplay('wrong_operation');
  return { state, index, body: read.body };
}
