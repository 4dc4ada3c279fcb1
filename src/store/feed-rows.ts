/**
 * What both engines' feed reads share: which events a pharmacist sees from others, and the rows
 * as read (`Store.readFeed`, src/store/types.ts).
 */
import { EVENT_KINDS } from '../ledger/event-kinds.js';
import { EVENT_TYPES } from '../ledger/event.js';
import type { EventRecord } from './records.js';
import { toEvent } from './records.js';
import type { FeedRow, FeedViewer, FeedWindowRow } from './types.js';

/**
 * The event types a pharmacist sees from others on a prescription it has acted on (a revoke, a
 * dispensation elsewhere, a lock or its release, a cancel): the kinds `seenByOthers`.
 */
export const SEEN_FROM_OTHERS = EVENT_TYPES.filter((type) => EVENT_KINDS[type].seenByOthers);

/** {@link SEEN_FROM_OTHERS} as an SQL list (constants only, safe to interpolate). */
export const SEEN_FROM_OTHERS_SQL = SEEN_FROM_OTHERS.map((t) => `'${t}'`).join(', ');

/**
 * A feed row as both engines return it: the event's columns, its `position` (PostgreSQL returns
 * a bigint as a string) and `cancelled` (SQLite answers 0 or 1, PostgreSQL a boolean).
 */
export type FeedRecord = EventRecord & { position: number | string; cancelled: number | boolean };

/** A stored window row: a {@link FeedRecord} with what decides who sees it. */
export type FeedWindowRecord = FeedRecord & {
  issuer: string;
  actor: string | null;
  type: string | null;
  /** SQLite answers a JSON array as text, PostgreSQL as an array. */
  actors_before: string | string[] | null;
};

/** A stored feed row as a {@link FeedRow}. */
export function toFeedRow(r: FeedRecord): FeedRow {
  return {
    position: Number(r.position),
    event: toEvent(r),
    cancelled: r.cancelled === true || r.cancelled === 1,
  };
}

/** A stored window row as a {@link FeedWindowRow}. */
export function toFeedWindowRow(r: FeedWindowRecord): FeedWindowRow {
  const before =
    typeof r.actors_before === 'string' ? JSON.parse(r.actors_before) : r.actors_before;
  return {
    ...toFeedRow(r),
    issuer: r.issuer,
    actor: r.actor,
    type: r.type,
    actorsBefore: Array.isArray(before) ? before.filter((a) => typeof a === 'string') : [],
  };
}

const SEEN_TYPES: ReadonlySet<string | null> = new Set(SEEN_FROM_OTHERS);

/**
 * Whether `viewer` sees `row`: `Store.readFeed`'s rule, the same as both engines' SQL: a prescriber
 * the events of what it issued; a pharmacist its own events, and the events of others but create
 * on a prescription it had written an event on before.
 */
export function seesFeedRow(viewer: FeedViewer, row: FeedWindowRow): boolean {
  if (viewer.role === 'prescriber') return row.issuer === viewer.sub;
  if (row.actor === viewer.sub) return true;
  return SEEN_TYPES.has(row.type) && row.actorsBefore.includes(viewer.sub);
}
