/**
 * What both engines' feed reads share: which events a pharmacist sees from others, and the rows
 * as read (`Store.readFeed`, src/store/types.ts).
 */
import type { EventRecord } from './records.js';
import { toEvent } from './records.js';
import type { FeedRow } from './types.js';

/**
 * The event types a pharmacist sees from others on a prescription it has acted on (a revoke, a
 * dispensation elsewhere, a lock or its release, a cancel): every type but create.
 */
export const SEEN_FROM_OTHERS = [
  'partial_dispense',
  'full_dispense',
  'lock',
  'unlock',
  'cancel',
  'revoke',
] as const;

/** {@link SEEN_FROM_OTHERS} as an SQL list (constants only, safe to interpolate). */
export const SEEN_FROM_OTHERS_SQL = SEEN_FROM_OTHERS.map((t) => `'${t}'`).join(', ');

/**
 * A feed row as both engines return it: the event's columns, its `position` (PostgreSQL returns
 * a bigint as a string) and `cancelled` (SQLite answers 0 or 1, PostgreSQL a boolean).
 */
export type FeedRecord = EventRecord & { position: number | string; cancelled: number | boolean };

/** A stored feed row as a {@link FeedRow}. */
export function toFeedRow(r: FeedRecord): FeedRow {
  return {
    position: Number(r.position),
    event: toEvent(r),
    cancelled: r.cancelled === true || r.cancelled === 1,
  };
}
