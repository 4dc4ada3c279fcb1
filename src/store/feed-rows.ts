/**
 * What both engines' feed reads share: which events a pharmacist sees from others, and the rows
 * as read (`FeedStore.read`, src/store/types.ts).
 */
import { EVENT_KINDS } from '../ledger/event-kinds.js';
import { EVENT_TYPES } from '../ledger/event.js';
import type { EventRecord } from './records.js';
import { toEvent } from './records.js';
import type { FeedEvent, FeedRow, FeedViewer, FeedWindowRow } from './types.js';

/**
 * The event types a pharmacist sees from others on a prescription it has acted on (a revoke, a
 * dispensation elsewhere, a lock or its release, a cancel): the kinds `seenByOthers`.
 */
export const SEEN_FROM_OTHERS = EVENT_TYPES.filter((type) => EVENT_KINDS[type].seenByOthers);

/** {@link SEEN_FROM_OTHERS} as an SQL list (constants only, safe to interpolate). */
export const SEEN_FROM_OTHERS_SQL = SEEN_FROM_OTHERS.map((t) => `'${t}'`).join(', ');

/**
 * The event types that make their actor involved in a prescription (the kinds `involves`: a
 * dispensation or a cancel; SPEC.md §10): from its first such event on, a pharmacy sees the
 * {@link SEEN_FROM_OTHERS} events of others on it. A lock or unlock alone involves no one.
 */
export const INVOLVING = EVENT_TYPES.filter((type) => EVENT_KINDS[type].involves);

/** {@link INVOLVING} as an SQL list (constants only, safe to interpolate). */
export const INVOLVING_SQL = INVOLVING.map((t) => `'${t}'`).join(', ');

/** The columns of a stored event the feed reads, beside it or as evidence (`feedEventSql`). */
export const FEED_EVENT_FIELDS = [
  'prescription_id',
  'seq',
  'id',
  'parent_hash',
  'body',
  'hash',
  'signature',
  'actor',
  'type',
  'cancels',
] as const;

/** A stored event with its copies, as both engines return it (`seq` may be a bigint string). */
export type FeedEventRecord = EventRecord & {
  actor: string | null;
  type: string | null;
  cancels: string | null;
};

/**
 * An event as one JSON object of {@link FEED_EVENT_FIELDS}, from the rows of `alias`:
 * `jsonObject` is the engine's constructor (`json_object`, `json_build_object`).
 */
export function feedEventSql(jsonObject: string, alias: string): string {
  return `${jsonObject}(${FEED_EVENT_FIELDS.map((f) => `'${f}', ${alias}.${f}`).join(', ')})`;
}

/**
 * The parts both engines' feed reads share, with the engine's JSON object constructor:
 * `columns`, each row's columns and copies and the first cancel that names it (`canceller`);
 * `created`, the chain's create event, whose signed actor is the issuer; `earlierInvolving`, the
 * condition on `m` of an earlier event of the chain that involves its actor ({@link INVOLVING}).
 * All found along the primary key. Every check of them against the signed bodies is the
 * service's (`service/feed/checked-feed.ts`).
 */
export function feedSqlParts(jsonObject: string) {
  const event = (alias: string): string => feedEventSql(jsonObject, alias);
  return {
    event,
    columns: `e.feed_seq AS position, ${FEED_EVENT_FIELDS.map((f) => `e.${f}`).join(', ')},
      (SELECT ${event('c')} FROM events c
        WHERE c.cancels = e.id AND c.prescription_id = e.prescription_id ORDER BY c.seq LIMIT 1)
        AS canceller`,
    created: `(SELECT ${event('c0')} FROM events c0
        WHERE c0.prescription_id = e.prescription_id AND c0.seq = 0) AS created`,
    earlierInvolving: `m.prescription_id = e.prescription_id AND m.seq < e.seq
        AND m.type IN (${INVOLVING_SQL})`,
  };
}

/** JSON the engine answered as text (SQLite) or already parsed (PostgreSQL); null as is. */
type JsonColumn = string | object | null;

/**
 * A feed row as both engines return it: the event's columns and copies, its `position`
 * (PostgreSQL returns a bigint as a string), and the evidence beside it as JSON
 * ({@link feedEventSql}): the chain's `created` event, the first `canceller`, the `involving`
 * events (one object on a pharmacist's read, an array on the window's).
 */
export type FeedRecord = FeedEventRecord & {
  position: number | string;
  created?: JsonColumn;
  canceller: JsonColumn;
  involving?: JsonColumn;
};

/** A stored window row: a {@link FeedRecord} with the prescription's `issuer_actor`. */
export type FeedWindowRecord = FeedRecord & { issuer: string };

/** A JSON column's value, whichever engine answered it. */
function jsonOf(value: JsonColumn | undefined): unknown {
  return typeof value === 'string' ? JSON.parse(value) : (value ?? undefined);
}

/** A stored event with its copies as a {@link FeedEvent}. */
function toFeedEvent(r: FeedEventRecord): FeedEvent {
  return { ...toEvent(r), actor: r.actor, type: r.type, cancels: r.cancels };
}

/** An event of the evidence (an object of {@link feedEventSql}), or undefined for none. */
function evidenceEvent(value: unknown): FeedEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return toFeedEvent(value as FeedEventRecord);
}

/** A stored feed row as a {@link FeedRow}, with its evidence. */
export function toFeedRow(r: FeedRecord): FeedRow {
  const involving = jsonOf(r.involving);
  const canceller = evidenceEvent(jsonOf(r.canceller));
  const create = evidenceEvent(jsonOf(r.created));
  return {
    position: Number(r.position),
    event: toFeedEvent(r),
    cancelled: canceller !== undefined,
    evidence: {
      ...(create && { create }),
      ...(canceller && { canceller }),
      involving: (Array.isArray(involving) ? involving : [involving]).flatMap(
        (e) => evidenceEvent(e) ?? [],
      ),
    },
  };
}

/** A stored window row as a {@link FeedWindowRow}: what decides who sees it, as copied. */
export function toFeedWindowRow(r: FeedWindowRecord): FeedWindowRow {
  const row = toFeedRow(r);
  const before = (row.evidence?.involving ?? []).flatMap((e) => e.actor ?? []);
  return {
    ...row,
    issuer: r.issuer,
    actor: r.actor,
    type: r.type,
    actorsBefore: [...new Set(before)],
  };
}

const SEEN_TYPES: ReadonlySet<string | null> = new Set(SEEN_FROM_OTHERS);

/**
 * Whether `viewer` sees `row`: `FeedStore.read`'s rule, the same as both engines' SQL: a prescriber
 * the events of what it issued; a pharmacist its own events, and the events of others but create
 * on a prescription it had dispensed or cancelled on before (`row.actorsBefore`, the
 * {@link INVOLVING} kinds).
 */
export function seesFeedRow(viewer: FeedViewer, row: FeedWindowRow): boolean {
  if (viewer.role === 'prescriber') return row.issuer === viewer.sub;
  if (row.actor === viewer.sub) return true;
  return SEEN_TYPES.has(row.type) && row.actorsBefore.includes(viewer.sub);
}
