/**
 * The event feed on PostgreSQL (`Store.sequenceFeed`, `feedHead`, `readFeed`, `listIssued`).
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
import { SEEN_FROM_OTHERS_SQL } from '../feed-rows.js';
import { withClient, withTransaction } from './pool.js';

/** Advisory lock key of the numbering ("erxf" in ASCII); only {@link sequenceFeed} takes it. */
export const FEED_LOCK_KEY = 0x65727866;

/**
 * Most rows one numbering transaction takes, so that a backlog (after a rolling upgrade, say)
 * is numbered in transactions well inside the statement timeout.
 */
export const FEED_BATCH = 5_000;

const COLUMNS = `e.feed_seq AS position, e.prescription_id, e.seq, e.id, e.parent_hash, e.body,
  e.hash, e.signature,
  EXISTS (SELECT 1 FROM events c WHERE c.cancels = e.id AND c.prescription_id = e.prescription_id)
    AS cancelled`;

/** The feed's SQL; `$1` of the reads is the viewer's subject. */
export const FEED_SQL = {
  pending: 'SELECT EXISTS (SELECT 1 FROM events WHERE feed_seq IS NULL) AS pending',
  lock: 'SELECT pg_try_advisory_xact_lock($1) AS locked',
  /**
   * Numbers at most `$1` committed unnumbered rows after the highest position, in chain order,
   * and copies out of each body what the reads decide from (migration 4's `erx_event_facts`).
   */
  number: `WITH head AS (SELECT coalesce(max(feed_seq), 0) AS m FROM events),
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
  issuer: `SELECT ${COLUMNS} FROM events e JOIN prescriptions p ON p.id = e.prescription_id
    WHERE e.feed_seq > $2 AND e.feed_seq <= $3 AND p.issuer_actor = $1
    ORDER BY e.feed_seq LIMIT $4`,
  // Whether the pharmacist had acted before is read from the log itself, so a cursor resumed
  // later sees exactly what a live reader saw: an earlier link of the chain has an earlier
  // position (each chain is numbered in its order), and is found by the primary key.
  pharmacist: `SELECT ${COLUMNS} FROM events e
    WHERE e.feed_seq > $2 AND e.feed_seq <= $3
      AND (e.actor = $1 OR (e.type IN (${SEEN_FROM_OTHERS_SQL}) AND EXISTS (
        SELECT 1 FROM events m
        WHERE m.prescription_id = e.prescription_id AND m.seq < e.seq AND m.actor = $1
      )))
    ORDER BY e.feed_seq LIMIT $4`,
  // Every event with what decides who sees it, for all the streams a new event wakes at once; the
  // earlier actors are read along the chain (the primary key) only where a pharmacist could see
  // the event from others.
  window: `SELECT ${COLUMNS}, p.issuer_actor AS issuer, e.actor, e.type,
      CASE WHEN e.type IN (${SEEN_FROM_OTHERS_SQL}) THEN (
        SELECT array_agg(DISTINCT m.actor) FROM events m
        WHERE m.prescription_id = e.prescription_id AND m.seq < e.seq AND m.actor IS NOT NULL
      ) END AS actors_before
    FROM events e JOIN prescriptions p ON p.id = e.prescription_id
    WHERE e.feed_seq > $1 AND e.feed_seq <= $2 ORDER BY e.feed_seq LIMIT $3`,
  issued: 'SELECT id FROM prescriptions WHERE issuer_actor = $1 AND id > $2 ORDER BY id LIMIT $3',
} as const;

/**
 * `Store.sequenceFeed`: numbers the committed unnumbered rows, in transactions of at most
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
