/**
 * The one way an event is appended (SPEC.md §5): under the prescription's lock, decide from the
 * current chain (a refusal throws and appends nothing), sign, store, and remember the call when it
 * carries an `Idempotency-Key`, so a retry answers the first answer and appends nothing.
 */
import { ErxError } from '../errors.js';
import { appendEvent, parseEventBody } from '../ledger/index.js';
import type { EventBody, NewEvent } from '../ledger/index.js';
import { IdempotencyRace, StaleHead } from '../store/races.js';
import type { EventRow } from '../store/types.js';
import { chainFacts } from './chain-state.js';
import type { ServiceDeps } from './deps.js';
import { eventView } from './event-view.js';
import { replayOf, idempotencyRow } from './idempotency.js';
import { loadChain } from './load-chain.js';
import type { LoadedChain } from './load-chain.js';
import type { CallContext, EventView } from './types.js';

/** The fields of the next event, or a thrown refusal. */
export type Decide = (chain: LoadedChain) => Omit<NewEvent, 'reference' | 'actor' | 'actor_name'>;

/**
 * The answer first given for event `eventId`: its view as the chain stood right after it was
 * appended, so a retry gets the same answer even if the event has been cancelled since.
 */
async function firstView(
  deps: ServiceDeps,
  prescriptionId: string,
  eventId: string,
): Promise<EventView> {
  const state = await deps.store.getChain(prescriptionId);
  const index = state?.events.findIndex((e) => e.id === eventId) ?? -1;
  if (!state || index < 0) throw new ErxError('not_found', 'No such event.');
  const chain = loadChain(state);
  const upToEvent = chainFacts(chain.bodies.slice(0, index + 1));
  return eventView(chain.bodies[index]!, state.events[index]!, upToEvent);
}

/** The body of an event just built (remembered by the ledger when it was written). */
function parsedBody(text: string): EventBody {
  const parsed = parseEventBody(text);
  if (!parsed.ok) throw new ErxError('internal_error', 'A new event does not read back');
  return parsed.body;
}

/** Appends the event `decide` chooses to prescription `id`, acting as `ctx.principal`. */
export async function appendDecided(
  deps: ServiceDeps,
  id: string,
  ctx: CallContext,
  decide: Decide,
): Promise<EventView> {
  const replay = await replayOf(deps, ctx);
  if (replay) return firstView(deps, replay.prescriptionId, replay.eventId);
  let body: EventBody | undefined;
  let before: readonly EventBody[] = [];
  let row: EventRow;
  try {
    row = await deps.store.appendEvent(id, async (state) => {
      const chain = loadChain(state);
      const last = state.events[state.events.length - 1]!;
      const signed = await appendEvent(
        { hash: last.hash, seq: last.seq },
        {
          ...decide(chain),
          reference: id,
          actor: ctx.principal.sub,
          actor_name: ctx.principal.name,
        },
        deps.signer,
      );
      const event: EventRow = { ...signed, prescriptionId: id };
      before = chain.bodies;
      body = parsedBody(signed.body);
      const idempotency = idempotencyRow(deps, ctx, id, event.id);
      return idempotency ? { event, idempotency } : { event };
    });
  } catch (error) {
    if (error instanceof IdempotencyRace) {
      const winner = await replayOf(deps, ctx);
      if (winner) return firstView(deps, winner.prescriptionId, winner.eventId);
    }
    if (error instanceof StaleHead) {
      // Other processes kept moving the head (several on one SQLite file): nothing was written.
      throw new ErxError('service_unavailable', 'The prescription is busy; retry.', {
        retryAfter: 1,
      });
    }
    throw error;
  }
  const appended = body as unknown as EventBody;
  deps.onAppend?.(appended.type);
  return eventView(appended, row, chainFacts([...before, appended]));
}
