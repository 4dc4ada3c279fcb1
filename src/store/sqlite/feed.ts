/**
 * The event feed on SQLite (`Store.feed`). Events are numbered by
 * the statement that inserts them (`./statements.ts` `insertEvent`), in the write transaction
 * that commits them, so numbers follow commit order without gaps; rows inserted by an older
 * process are numbered by migration 4's trigger in that same transaction.
 */
import type Database from 'better-sqlite3';
import type { FeedRecord, FeedWindowRecord } from '../feed-rows.js';
import { SEEN_FROM_OTHERS_SQL, feedSqlParts, toFeedRow, toFeedWindowRow } from '../feed-rows.js';
import type { FeedStore } from '../parts.js';
import type { FeedRow, FeedViewer, FeedWindowRow } from '../types.js';

interface FeedParams {
  sub: string;
  after: number;
  upTo: number;
  limit: number;
}

const {
  event,
  columns: COLUMNS,
  created: CREATED,
  earlierInvolving: EARLIER_INVOLVING,
} = feedSqlParts('json_object');

/**
 * The range of positions drives every feed read (CROSS JOIN keeps the events outermost): a
 * reader that is caught up reads a few rows whatever the size of its history.
 */
const RANGE = 'e.feed_seq > @after AND e.feed_seq <= @upTo';

/** The feed's SQL on SQLite. */
export const SQLITE_FEED_SQL = {
  head: 'SELECT coalesce(max(feed_seq), 0) AS head FROM events',
  issuer: `SELECT ${COLUMNS}, ${CREATED}
    FROM events e CROSS JOIN prescriptions p ON p.id = e.prescription_id
    WHERE ${RANGE} AND p.issuer_actor = @sub ORDER BY e.feed_seq LIMIT @limit`,
  // Whether the pharmacist had dispensed or cancelled before (`INVOLVING`) is read from the log
  // itself, so a cursor resumed later sees exactly what a live reader saw: an earlier link of the
  // chain has an earlier position (each chain is numbered in its order), and is found by the
  // primary key. The first such event comes along, for the service to check.
  pharmacist: `SELECT ${COLUMNS}, CASE WHEN e.actor = @sub THEN NULL ELSE (
      SELECT ${event('m')} FROM events m WHERE ${EARLIER_INVOLVING} AND m.actor = @sub
      ORDER BY m.seq LIMIT 1
    ) END AS involving
    FROM events e
    WHERE ${RANGE} AND (e.actor = @sub OR (e.type IN (${SEEN_FROM_OTHERS_SQL}) AND EXISTS (
      SELECT 1 FROM events m WHERE ${EARLIER_INVOLVING} AND m.actor = @sub
    )))
    ORDER BY e.feed_seq LIMIT @limit`,
  // Every event with what decides who sees it, for all the streams a new event wakes at once; the
  // first involving event of each earlier actor is read along the chain (the primary key) only
  // where a pharmacist could see the event from others (a bare column beside min() is the row
  // of the minimum).
  window: `SELECT ${COLUMNS}, ${CREATED}, p.issuer_actor AS issuer,
      CASE WHEN e.type IN (${SEEN_FROM_OTHERS_SQL}) THEN (
        SELECT json_group_array(json(first.event)) FROM (
          SELECT ${event('m')} AS event, min(m.seq) FROM events m
          WHERE ${EARLIER_INVOLVING} AND m.actor IS NOT NULL GROUP BY m.actor
        ) AS first
      ) END AS involving
    FROM events e CROSS JOIN prescriptions p ON p.id = e.prescription_id
    WHERE ${RANGE} ORDER BY e.feed_seq LIMIT @limit`,
  issued: 'SELECT id FROM prescriptions WHERE issuer_actor = ? AND id > ? ORDER BY id LIMIT ?',
} as const;

/** The feed's statements over one connection (the schema must be migrated). */
export class SqliteFeed implements FeedStore {
  readonly #head: Database.Statement<[], { head: number }>;
  readonly #issuer: Database.Statement<[FeedParams], FeedRecord>;
  readonly #pharmacist: Database.Statement<[FeedParams], FeedRecord>;
  readonly #window: Database.Statement<[Omit<FeedParams, 'sub'>], FeedWindowRecord>;
  readonly #issued: Database.Statement<[string, string, number], { id: string }>;

  constructor(db: Database.Database) {
    this.#head = db.prepare(SQLITE_FEED_SQL.head);
    this.#issuer = db.prepare(SQLITE_FEED_SQL.issuer);
    this.#pharmacist = db.prepare(SQLITE_FEED_SQL.pharmacist);
    this.#window = db.prepare(SQLITE_FEED_SQL.window);
    this.#issued = db.prepare(SQLITE_FEED_SQL.issued);
  }

  /** Numbers nothing: each event is numbered by the transaction that inserts it. */
  async sequence(): Promise<number> {
    return 0;
  }

  /** The highest position given (0 before any). */
  async head(): Promise<number> {
    return this.#head.get()?.head ?? 0;
  }

  async read(viewer: FeedViewer, after: number, upTo: number, limit: number): Promise<FeedRow[]> {
    if (limit <= 0 || upTo <= after) return [];
    const params = { sub: viewer.sub, after, upTo, limit };
    const statement = viewer.role === 'prescriber' ? this.#issuer : this.#pharmacist;
    return statement.all(params).map(toFeedRow);
  }

  async readWindow(after: number, upTo: number, limit: number): Promise<FeedWindowRow[]> {
    if (limit <= 0 || upTo <= after) return [];
    return this.#window.all({ after, upTo, limit }).map(toFeedWindowRow);
  }

  async listIssued(
    issuerActor: string,
    after: string | undefined,
    limit: number,
  ): Promise<string[]> {
    return this.#issued.all(issuerActor, after ?? '', limit).map((r) => r.id);
  }
}
