/**
 * The bounds of a prescription's history (README, configuration; docs/decisions.md "A
 * prescription's history is bounded"): how many events one chain may hold, and how many one actor
 * may append to one prescription within a window. Each is an `ERX_CHAIN_*` variable.
 */

/** The bounds of one chain. */
export interface ChainBounds {
  /** Events one chain may hold, its create included (`ERX_CHAIN_MAX_EVENTS`). */
  readonly maxEvents: number;
  /** Events one actor may append to one prescription within {@link actorWindowMs} (`ERX_CHAIN_ACTOR_EVENTS`). */
  readonly actorEvents: number;
  /** The window of {@link actorEvents}, ms (`ERX_CHAIN_ACTOR_WINDOW`). */
  readonly actorWindowMs: number;
}

/** The bounds when nothing is configured (docs/decisions.md says why these numbers). */
export const DEFAULT_CHAIN_BOUNDS: ChainBounds = Object.freeze({
  maxEvents: 500,
  actorEvents: 60,
  actorWindowMs: 3_600_000,
});

/** Reads a whole number in `[min, max]` from the environment, `fallback` when unset. */
type ReadInteger = (name: string, fallback: number, min: number, max: number) => number;

/** Reads a duration (`15m`, `1h`) from the environment, in ms, `fallback` when unset. */
type ReadDuration = (name: string, fallback: string) => number;

/** The chain bounds from the environment, through the configuration's own readers. */
export function readChainBounds(integer: ReadInteger, duration: ReadDuration): ChainBounds {
  const d = DEFAULT_CHAIN_BOUNDS;
  return Object.freeze({
    maxEvents: integer('ERX_CHAIN_MAX_EVENTS', d.maxEvents, 2, 1_000_000),
    actorEvents: integer('ERX_CHAIN_ACTOR_EVENTS', d.actorEvents, 1, 1_000_000),
    actorWindowMs: duration('ERX_CHAIN_ACTOR_WINDOW', `${d.actorWindowMs / 60_000}m`),
  });
}
