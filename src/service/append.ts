/**
 * The one way an event is appended (SPEC.md §5), the first of a new chain and every later one:
 * decide (a refusal throws and appends nothing), build and sign, store, and remember the call when
 * it carries an `Idempotency-Key`, so a retry answers the first answer and appends nothing. The
 * stores' typed signals become answers here.
 */
import { ErxError } from '../errors.js';
import { buildEvent } from '../ledger/index.js';
import type { BuiltEvent, ChainHead, EventBody, NewEvent } from '../ledger/index.js';
import { AlreadyExists, IdempotencyRace, NoSuchPrescription, StaleHead } from '../store/races.js';
import type {
  AppendDecision,
  ChainState,
  EventRow,
  IdempotencyRow,
  PrescriptionRow,
} from '../store/types.js';
import { cancelledIn } from './chain-state.js';
import type { ServiceDeps } from './deps.js';
import { eventView } from './event-view.js';
import { idempotencyRow, replayOf } from './idempotency.js';
import { corrupt, loadChain, readBody } from './load-chain.js';
import type { LoadedChain } from './load-chain.js';
import type { CallContext, EventView } from './types.js';

/** The fields of an event the operation chooses; the rest come from the call and the chain. */
export type EventChoice = Omit<NewEvent, 'reference' | 'actor' | 'actor_name'>;

/** The next event of a chain as the rules decide it from the chain, or a thrown refusal. */
export type Decide = (chain: LoadedChain) => EventChoice;

/** Where an event goes: the first of a new prescription's chain, or the next of an existing one. */
export type AppendTarget =
  | {
      readonly kind: 'new';
      /** The prescription row; its head is the create event. */
      readonly prescription: Omit<PrescriptionRow, 'headHash'>;
      readonly event: EventChoice;
      /** What a replay needs beyond the event (create: the link's `s`). */
      readonly answer?: string;
    }
  | { readonly kind: 'next'; readonly id: string; readonly decide: Decide };

/** An event as stored, its body, and the bodies of the chain before it. */
export interface Written {
  readonly row: EventRow;
  readonly body: EventBody;
  readonly before: readonly EventBody[];
}

/** What an append did: appended an event, or found the call made already (`Idempotency-Key`). */
export type Appended =
  | { readonly replay: IdempotencyRow; readonly written?: never }
  | { readonly written: Written; readonly replay?: never };

/** Appends to `target` acting as `ctx.principal`; a repeated call answers its first call. */
export async function append(
  deps: ServiceDeps,
  ctx: CallContext,
  target: AppendTarget,
): Promise<Appended> {
  const replay = await replayOf(deps, ctx);
  if (replay) return { replay };
  try {
    return { written: await write(deps, ctx, target) };
  } catch (error) {
    if (error instanceof Replay) return { replay: error.first };
    if (error instanceof IdempotencyRace) {
      const winner = await replayOf(deps, ctx);
      if (winner) return { replay: winner };
    }
    throw answerOf(error);
  }
}

/** The answer to a store's signal; other errors as they are. */
function answerOf(error: unknown): unknown {
  if (error instanceof StaleHead) {
    // Other processes kept moving the head (several on one SQLite file): nothing was written.
    return new ErxError('service_unavailable', 'The prescription is busy; retry.', {
      retryAfter: 1,
    });
  }
  if (error instanceof AlreadyExists) {
    return new ErxError('conflict', 'A prescription with this Id exists already.');
  }
  if (error instanceof NoSuchPrescription) {
    return new ErxError('not_found', 'No prescription with this id.');
  }
  return error;
}

async function write(deps: ServiceDeps, ctx: CallContext, target: AppendTarget): Promise<Written> {
  const id = target.kind === 'new' ? target.prescription.id : target.id;
  const build = (head: ChainHead | undefined, choice: EventChoice): Promise<BuiltEvent> =>
    buildEvent(
      head,
      { ...choice, reference: id, actor: ctx.principal.sub, actor_name: ctx.principal.name },
      deps.signer,
      deps.clock,
    );
  // The chain below the new event passed every check (the create event has none below it).
  const decision = (
    built: BuiltEvent,
    below: ChainState | undefined,
    answer?: string,
  ): AppendDecision => {
    const event: EventRow = { ...built.signed, prescriptionId: id };
    const idempotency = idempotencyRow(deps, ctx, id, event.id, answer);
    const seal = deps.verifiedHeads.sealFor(sealedAfter(below, target, event));
    return { event, ...(idempotency && { idempotency }), ...(seal && { seal }) };
  };
  let built: BuiltEvent;
  let before: readonly EventBody[] = [];
  let row: EventRow;
  if (target.kind === 'new') {
    built = await build(undefined, target.event);
    const first = decision(built, undefined, target.answer);
    await deps.store.insertPrescription(
      { ...target.prescription, headHash: built.signed.hash },
      first,
    );
    row = first.event;
  } else {
    await refuseUnlogged(deps, id);
    // Filled in by the decision under the store's lock; read once the store has committed it.
    const made: { built?: BuiltEvent; before?: readonly EventBody[] } = {};
    row = await deps.store.appendEvent(id, async (state) => {
      // A retry sent while its first call was still running finds it here, under the
      // prescription's lock that first call held: it answers that call, not the rules.
      const first = await replayOf(deps, ctx);
      if (first) throw new Replay(first);
      // The log was consulted above (`refuseUnlogged`): appends at once would starve a pool.
      const chain = await loadChain(deps, state, 'before');
      // The event follows the last one, in the chain and in time (`buildEvent`).
      const last = state.events[state.events.length - 1]!;
      made.built = await build(last, target.decide(chain));
      made.before = chain.bodies;
      return decision(made.built, state);
    });
    if (made.built === undefined) throw new ErxError('internal_error', 'No event was built');
    built = made.built;
    before = made.before ?? [];
  }
  // Signed here a moment ago: the next decision on this chain need not check its signature again.
  deps.verifier.vouch(built.signed);
  deps.onAppend?.(built.body.type);
  return { row, body: built.body, before };
}

/**
 * Refuses to append to a chain whose newest event the transparency log covers is not the log's
 * leaf at its position (`ServiceDeps.newestNotInLog`): its hash binds every event below it, whose
 * hashes and links the decision checks under the lock. Checked just before the prescription's
 * lock is taken (events appended since are newer still).
 */
async function refuseUnlogged(deps: ServiceDeps, id: string): Promise<void> {
  const bad = await deps.newestNotInLog(id);
  if (bad === undefined) return;
  throw corrupt({ event: bad, check: 'log', reason: 'not_in_log' });
}

/** Ends an append whose call turned out, under the lock, to repeat one made already. */
class Replay {
  constructor(readonly first: IdempotencyRow) {}
}

/** The chain as it will stand once `event` is appended to `below` (or starts a new one). */
function sealedAfter(
  below: ChainState | undefined,
  target: AppendTarget,
  event: EventRow,
): ChainState {
  if (below !== undefined) {
    return {
      prescription: { ...below.prescription, headHash: event.hash },
      events: [...below.events, event],
    };
  }
  if (target.kind !== 'new') throw new ErxError('internal_error', 'No chain below the event');
  return { prescription: { ...target.prescription, headHash: event.hash }, events: [event] };
}

/**
 * The answer first given for event `eventId`: its view as the chain stood right after it was
 * appended, so a retry gets the same answer even if the event has been cancelled since.
 */
export async function firstView(deps: ServiceDeps, first: IdempotencyRow): Promise<EventView> {
  const state = await deps.store.getChain(first.prescriptionId);
  const index = state?.events.findIndex((e) => e.id === first.eventId) ?? -1;
  if (!state || index < 0) throw new ErxError('not_found', 'No such event.');
  const bodies = state.events.slice(0, index + 1).map((row) => readBody(row));
  return eventView(bodies[index]!, state.events[index]!, cancelledIn(bodies));
}

/** Appends the event `decide` chooses to prescription `id`, acting as `ctx.principal`. */
export async function appendDecided(
  deps: ServiceDeps,
  id: string,
  ctx: CallContext,
  decide: Decide,
): Promise<EventView> {
  const done = await append(deps, ctx, { kind: 'next', id, decide });
  if (done.replay) return firstView(deps, done.replay);
  const { body, row, before } = done.written;
  return eventView(body, row, cancelledIn([...before, body]));
}
