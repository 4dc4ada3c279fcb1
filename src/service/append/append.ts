/**
 * The one way an event is appended (SPEC.md §5), the first of a new chain and every later one:
 * decide (a refusal throws and appends nothing), build and sign, store, and remember the call when
 * it carries an `Idempotency-Key`, so a retry answers the first answer and appends nothing. The
 * appends of one prescription are serialised here, per process (`ServiceDeps.appendLocks`): under
 * that lock the chain is read (and held against other instances, `Store.holdChain`), decided on
 * (the operation's rules, then the chain's bounds), and the decision handed to the store as data. The stores' typed signals become answers here.
 */
import { ErxError } from '../../errors.js';
import { buildEvent } from '../../ledger/index.js';
import type { BuiltEvent, ChainHead, EventBody, EventType, NewEvent } from '../../ledger/index.js';
import {
  AlreadyExists,
  IdempotencyRace,
  NoSuchPrescription,
  StaleHead,
} from '../../store/races.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  AppendDecision,
  ChainState,
  EventRow,
  IdempotencyRow,
  PrescriptionRow,
} from '../../store/types.js';
import { firstContradicted } from '../../transparency/chain-in-log.js';
import type { LoggedPlace } from '../../transparency/chain-in-log.js';
import { checkGrowth } from '../rules/chain-bounds.js';
import { cancelledIn } from '../rules/chain-state.js';
import type { ServiceDeps } from '../deps.js';
import { eventView } from '../view/event-view.js';
import { idempotencyRow, replayOf, replayedEvent } from './idempotency.js';
import type { ReplayTarget } from './idempotency.js';
import { corrupt, loadChain, readBody } from './load-chain.js';
import type { LoadedChain } from './load-chain.js';
import type { CallContext, EventView } from '../types.js';

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
    const seal = deps.verifiedHeads.sealFor(sealedAfter(below, target, event), true);
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
    // Read before the lock: appends at once would starve a pool. Leaves logged since are newer.
    const logged = await deps.loggedPlaces(id);
    const next = await deps.appendLocks.run(id, () =>
      appendNext(deps, ctx, id, async (state) => {
        refuseContradicted(state, logged);
        const chain = await loadChain(deps, state, 'before');
        const choice = target.decide(chain);
        refuseGrowth(deps, ctx, chain, choice);
        // The event follows the last one, in the chain and in time (`buildEvent`).
        const built = await build(state.events[state.events.length - 1]!, choice);
        return { built, before: chain.bodies, decision: decision(built, state) };
      }),
    );
    ({ built, before } = next);
    row = next.decision.event;
  }
  // Signed here a moment ago: the next decision on this chain need not check its signature again.
  deps.verifier.vouch(built.signed);
  deps.onAppend?.(built.body.type, row);
  return { row, body: built.body, before };
}

/** Refuses an event the chain's bounds do not allow (`../rules/chain-bounds.ts`). */
function refuseGrowth(
  deps: ServiceDeps,
  ctx: CallContext,
  chain: LoadedChain,
  choice: EventChoice,
): void {
  const ask = { type: choice.type, actor: ctx.principal.sub, now: deps.clock.now() };
  const refused = checkGrowth(chain.bodies, ask, deps.chainBounds);
  if (refused !== undefined) throw refused;
}

/**
 * Refuses to append to a chain that the transparency log's leaves of its name contradict
 * (`ServiceDeps.loggedPlaces`): a logged place the chain no longer holds (truncated), or holds
 * with another hash (rewritten, even re-signed with erx's keys).
 */
function refuseContradicted(state: ChainState, logged: readonly LoggedPlace[]): void {
  const bad = firstContradicted(state.events, logged);
  if (bad === undefined) return;
  throw corrupt({ event: state.events[bad]!.id, check: 'log', reason: 'not_in_log' });
}

/** Ends an append whose call turned out, under the lock, to repeat one made already. */
class Replay {
  constructor(readonly first: IdempotencyRow) {}
}

/**
 * Attempts of an append whose head another process moved between the read and the write (several
 * processes on one SQLite file; docs/decisions.md): then the chain is read and decided on again.
 */
export const APPEND_ATTEMPTS = 4;

/** What a decision on a chain made: the event built and signed, and the chain's bodies below it. */
interface Decided {
  readonly built: BuiltEvent;
  readonly before: readonly EventBody[];
  readonly decision: AppendDecision;
}

/**
 * Under the prescription's lock: reads and holds the chain, lets `decide` decide on it, and hands
 * the decision to the store; on a stale head, reads and decides again, {@link APPEND_ATTEMPTS} at
 * most, after a short random pause so competing processes do not retry in lock step.
 */
async function appendNext(
  deps: ServiceDeps,
  ctx: CallContext,
  id: string,
  decide: (state: ChainState) => Promise<Decided>,
): Promise<Decided> {
  for (let attempt = 1; ; attempt++) {
    const held = await deps.store.holdChain(id);
    if (held === undefined) throw new NoSuchPrescription();
    try {
      // A retry sent while its first call was still running finds it here, under the
      // prescription's lock that first call held: it answers that call, not the rules.
      const first = await replayOf(deps, ctx);
      if (first) throw new Replay(first);
      const decided = await decide(held.state);
      await held.append(decided.decision);
      return decided;
    } catch (error) {
      if (!(error instanceof StaleHead) || attempt >= APPEND_ATTEMPTS) throw error;
    } finally {
      await held.release();
    }
    await sleep(Math.random() * 5 * attempt);
  }
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
 * The answer first given for the event `first` remembers, checked to be `target`'s
 * (`replayedEvent`): its view as the chain stood right after it was appended, so a retry gets the
 * same answer even if the event has been cancelled since.
 */
export async function firstView(
  deps: ServiceDeps,
  ctx: CallContext,
  first: IdempotencyRow,
  target: ReplayTarget,
): Promise<EventView> {
  const { state, index, body } = await replayedEvent(deps, ctx, first, target);
  const before = state.events.slice(0, index).map((row) => readBody(row));
  return eventView(body, state.events[index]!, cancelledIn([...before, body]));
}

/**
 * Appends the event `decide` chooses to prescription `id`, acting as `ctx.principal`; `types` are
 * the event types the operation appends (a repeated call answers only such an event of its own).
 */
export async function appendDecided(
  deps: ServiceDeps,
  id: string,
  ctx: CallContext,
  types: readonly EventType[],
  decide: Decide,
): Promise<EventView> {
  const done = await append(deps, ctx, { kind: 'next', id, decide });
  if (done.replay) return firstView(deps, ctx, done.replay, { prescriptionId: id, types });
  const { body, row, before } = done.written;
  return eventView(body, row, cancelledIn([...before, body]));
}
