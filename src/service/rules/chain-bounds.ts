/**
 * The bounds of a prescription's history (docs/decisions.md "A prescription's history is
 * bounded"), each a named pure check in one list, as the dispensation's rules are: a chain holds at
 * most `maxEvents` events (409 `chain_full`), and one actor appends at most `actorEvents` events to
 * one prescription within `actorWindowMs` (429 `too_many_events`, `Retry-After` the seconds until
 * one of its events leaves the window). A revoke is bounded by neither: it is final, so it adds at
 * most one event, and it stays the issuer's way to end a prescription whose history is full.
 * Decided on the chain read under the prescription's lock (`../append/append.ts`).
 */
import type { ChainBounds } from '../../config/chain-bounds.js';
import { ErxError } from '../../errors.js';
import { EVENT_KINDS, tryParseTimestamp } from '../../ledger/index.js';
import type { EventBody, EventType } from '../../ledger/index.js';
import type { Refusal } from './state-rules.js';

/** What an append asks of the chain's bounds. */
export interface GrowthAsk {
  /** The kind of event to be appended. */
  readonly type: EventType;
  /** Who appends it (`actor`, the token's subject). */
  readonly actor: string;
  /** The time of the decision, unix ms. */
  readonly now: number;
}

/** One bound: its refusal of `ask` on the chain `bodies` under `bounds`, or nothing. */
export type BoundCheck = (
  bodies: readonly EventBody[],
  ask: GrowthAsk,
  bounds: ChainBounds,
) => Refusal | undefined;

/** Whether events of `type` are exempt from the bounds: the revoke, final and once per chain. */
export function isUnbounded(type: EventType): boolean {
  return EVENT_KINDS[type].fold === 'revoke';
}

/** 409 `chain_full` once the chain holds `maxEvents` events: no retry changes that. */
export const chainTotal: BoundCheck = (bodies, ask, bounds) => {
  if (isUnbounded(ask.type) || bodies.length < bounds.maxEvents) return undefined;
  const error = new ErxError(
    'conflict',
    `The history of this prescription has reached its bound of ${bounds.maxEvents} events; ` +
      'only a revoke may still be appended.',
    { causeCode: 'chain_full', params: { limit: bounds.maxEvents } },
  );
  return { error };
};

/**
 * 429 `too_many_events` while the actor has appended `actorEvents` events to this prescription
 * within the window before `now`; `Retry-After` says when enough of them have left it.
 */
export const actorWindow: BoundCheck = (bodies, ask, bounds) => {
  if (isUnbounded(ask.type)) return undefined;
  const since = ask.now - bounds.actorWindowMs;
  const times = bodies
    .filter((e) => e.actor === ask.actor)
    .map((e) => tryParseTimestamp(e.timestamp)?.date.getTime() ?? ask.now)
    .filter((at) => at > since)
    .sort((a, b) => a - b);
  if (times.length < bounds.actorEvents) return undefined;
  // Once this one has left the window, fewer than `actorEvents` remain in it.
  const leaving = times[times.length - bounds.actorEvents]!;
  const retryAfter = Math.max(1, Math.ceil((leaving + bounds.actorWindowMs - ask.now) / 1000));
  const error = new ErxError(
    'too_many_requests',
    `At most ${bounds.actorEvents} events by one caller on one prescription within ` +
      `${bounds.actorWindowMs / 1000} s; retry in ${retryAfter} s.`,
    {
      causeCode: 'too_many_events',
      retryAfter,
      params: { limit: bounds.actorEvents, window_s: bounds.actorWindowMs / 1000 },
    },
  );
  return { error };
};

/** Every bound, in the order an append meets them: the lasting refusal before the passing one. */
export const CHAIN_BOUND_CHECKS = [
  ['chainTotal', chainTotal],
  ['actorWindow', actorWindow],
] as const satisfies readonly (readonly [string, BoundCheck])[];

/** The first refusal of {@link CHAIN_BOUND_CHECKS}, or undefined when the chain may grow. */
export function checkGrowth(
  bodies: readonly EventBody[],
  ask: GrowthAsk,
  bounds: ChainBounds,
): ErxError | undefined {
  for (const [, check] of CHAIN_BOUND_CHECKS) {
    const refused = check(bodies, ask, bounds);
    if (refused !== undefined) return refused.error;
  }
  return undefined;
}
