/**
 * The event feed on PostgreSQL (`Store.feed`).
 * Events are inserted without a position. A position taken at insert time (a sequence) would
 * follow the order of inserts, not of commits: a reader that had passed it would skip a row whose
 * transaction commits late. So rows are numbered only once committed, by one instance at a time:
 * {@link sequenceFeed} takes a transaction-scoped advisory lock and then, in a new statement whose
 * snapshot sees every earlier numbering, gives the unnumbered rows the positions after the highest.
 * Each run's range is contiguous and above every earlier one, so a reader that has seen position
 * N has seen 1..N; a late commit is numbered late, never skipped. An event is appended only after
 * its predecessor committed, so the predecessor is numbered in the same run (ordered by chain) or
 * an earlier one.
 */
import type pg from 'pg';
import type { FeedRecord, FeedWindowRecord } from '../feed-rows.js';
import { SEEN_FROM_OTHERS_SQL, feedSqlParts, toFeedRow, toFeedWindowRow } from '../feed-rows.js';
import type { FeedStore } from '../parts.js';
import type { FeedRow, FeedViewer, FeedWindowRow } from '../types.js';
import { guarded, queryPool, withClient, withTransaction } from './pool.js';

/** Advisory lock key of the numbering ("erxf" in ASCII); only {@link sequenceFeed} takes it. */
export const FEED_LOCK_KEY = 0x65727866;

/**
 * Most rows one numbering transaction takes, so that a backlog (after a rolling upgrade, say)
 * is numbered in transactions well inside the statement timeout.
 */
export const FEED_BATCH = 5_000;

const {
  event,
  columns: COLUMNS,
  created: CREATED,
  earlierInvolving: EARLIER_INVOLVING,
} = feedSqlParts('json_build_object');

/** The feed's SQL; `$1` of the reads is the viewer's subject. */
export const FEED_SQL = {
  pending: 'SELECT EXISTS (SELECT 1 FROM events WHERE feed_seq IS NULL) AS pending',
  lock: 'SELECT pg_try_advisory_xact_lock($1) AS locked',
  /**
   * Numbers at most `$1` committed unnumbered rows after the highest position (of the events, or
   * of the log's last leaf: a position the log read is never given again), in chain order,
   * and copies out of each body what the reads decide from (migration 4's `erx_event_facts`).
   */
  number: `WITH head AS (SELECT greatest(coalesce((SELECT max(feed_seq) FROM events), 0),
      coalesce((SELECT feed_seq FROM log_leaves ORDER BY idx DESC LIMIT 1), 0)) AS m),
    todo AS (
      SELECT ev.prescription_id, ev.seq, f.actor, f.type, f.cancels,
        row_number() OVER (ORDER BY ev.prescription_id, ev.seq) AS n
      FROM (
        SELECT prescription_id, seq, body FROM events WHERE feed_seq IS NULL
        ORDER BY prescription_id, seq LIMIT $1
      ) AS ev, LATERAL erx_event_facts(ev.body) AS f
    )
    UPDATE events e SET feed_seq = head.m + todo.n, actor = todo.actor, type = todo.type,
      cancels = todo.cancels
    FROM head, todo
    WHERE e.prescription_id = todo.prescription_id AND e.seq = todo.seq`,
  head: 'SELECT coalesce(max(feed_seq), 0) AS head FROM events',
  issuer: `SELECT ${COLUMNS}, ${CREATED} FROM events e JOIN prescriptions p ON p.id = e.prescription_id
    WHERE e.feed_seq > $2 AND e.feed_seq <= $3 AND p.issuer_actor = $1
    ORDER BY e.feed_seq LIMIT $4`,
  // Whether the pharmacist had dispensed or cancelled before (`INVOLVING`) is read from the log
  // itself, so a cursor resumed later sees exactly what a live reader saw: an earlier link of the
  // chain has an earlier position (each chain is numbered in its order), and is found by the
  // primary key. The first such event comes along, for the service to check.
  pharmacist: `SELECT ${COLUMNS}, CASE WHEN e.actor = $1 THEN NULL ELSE (
      SELECT ${event('m')} FROM events m WHERE ${EARLIER_INVOLVING} AND m.actor = $1
      ORDER BY m.seq LIMIT 1
    ) END AS involving
    FROM events e
    WHERE e.feed_seq > $2 AND e.feed_seq <= $3
      AND (e.actor = $1 OR (e.type IN (${SEEN_FROM_OTHERS_SQL}) AND EXISTS (
        SELECT 1 FROM events m WHERE ${EARLIER_INVOLVING} AND m.actor = $1
      )))
    ORDER BY e.feed_seq LIMIT $4`,
  // Every event with what decides who sees it, for all the streams a new event wakes at once; the
  // first involving event of each earlier actor is read along the chain (the primary key) only
  // where a pharmacist could see the event from others.
  window: `SELECT ${COLUMNS}, ${CREATED}, p.issuer_actor AS issuer,
      CASE WHEN e.type IN (${SEEN_FROM_OTHERS_SQL}) THEN (
        SELECT json_agg(first.event) FROM (
          SELECT DISTINCT ON (m.actor) ${event('m')} AS event FROM events m
          WHERE ${EARLIER_INVOLVING} AND m.actor IS NOT NULL ORDER BY m.actor, m.seq
        ) AS first
      ) END AS involving
    FROM events e JOIN prescriptions p ON p.id = e.prescription_id
    WHERE e.feed_seq > $1 AND e.feed_seq <= $2 ORDER BY e.feed_seq LIMIT $3`,
  issued: 'SELECT id FROM prescriptions WHERE issuer_actor = $1 AND id > $2 ORDER BY id LIMIT $3',
} as const;

/**
 * `FeedStore.sequence`: numbers the committed unnumbered rows, in transactions of at most
 * {@link FEED_BATCH}; 0 at once when there are none or another instance is numbering now (it, or
 * a later call, numbers what is left).
 */
export async function sequenceFeed(pool: pg.Pool): Promise<number> {
  const pending = await withClient(pool, (c) => c.query<{ pending: boolean }>(FEED_SQL.pending));
  if (pending.rows[0]?.pending !== true) return 0;
  let numbered = 0;
  for (;;) {
    const batch = await withTransaction(pool, async (client) => {
      // Each statement its own snapshot, whatever the server's default: the numbering statement
      // must see what the previous holder of the lock committed.
      await client.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
      const lock = await client.query<{ locked: boolean }>(FEED_SQL.lock, [FEED_LOCK_KEY]);
      if (lock.rows[0]?.locked !== true) return undefined;
      return (await client.query(FEED_SQL.number, [FEED_BATCH])).rowCount ?? 0;
    });
    if (batch === undefined) return numbered;
    numbered += batch;
    if (batch < FEED_BATCH) return numbered;
  }
}

/** The feed over the store's pool. */
export class PostgresFeed implements FeedStore {
  constructor(private readonly pool: pg.Pool) {}

  async sequence(): Promise<number> {
    return guarded(() => sequenceFeed(this.pool));
  }

  async head(): Promise<number> {
    const { rows } = await queryPool<{ head: string }>(this.pool, FEED_SQL.head);
    return Number(rows[0]?.head ?? 0);
  }

  async read(viewer: FeedViewer, after: number, upTo: number, limit: number): Promise<FeedRow[]> {
    if (limit <= 0 || upTo <= after) return [];
    const sql = viewer.role === 'prescriber' ? FEED_SQL.issuer : FEED_SQL.pharmacist;
    const values = [viewer.sub, after, upTo, limit];
    return (await queryPool<FeedRecord>(this.pool, sql, values)).rows.map(toFeedRow);
  }

  async readWindow(after: number, upTo: number, limit: number): Promise<FeedWindowRow[]> {
    if (limit <= 0 || upTo <= after) return [];
    const values = [after, upTo, limit];
    const { rows } = await queryPool<FeedWindowRecord>(this.pool, FEED_SQL.window, values);
    return rows.map(toFeedWindowRow);
  }

  async listIssued(
    issuerActor: string,
    after: string | undefined,
    limit: number,
  ): Promise<string[]> {
    const values = [issuerActor, after ?? '', limit];
    return (await queryPool<{ id: string }>(this.pool, FEED_SQL.issued, values)).rows.map(
      (r) => r.id,
    );
  }
}
