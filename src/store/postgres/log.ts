/**
 * The transparency log on PostgreSQL (`Store.log`, `../log.ts`). Growths are written one at a time
 * across instances: each takes a transaction-scoped advisory lock, then reads the newest size and
 * writes nothing if another instance's growth moved it, so the tree never has a gap or a leaf
 * twice. Leaves are taken from the events numbered by the feed (`./feed.ts`), which numbers only
 * what has committed, in an order that never changes, and kept as taken in (`log_leaves`).
 */
import type pg from 'pg';
import {
  KEPT_CHECKPOINT_SPACING_MS,
  LEAF_COLUMNS,
  chainLeavesSql,
  leafColumns,
  leafEventsSql,
  toChainLeafRow,
  toLeafEvent,
  toLeafRow,
} from '../log.js';
import type {
  ChainLeafRow,
  LeafEvent,
  LeafRecord,
  LeafRow,
  LogAppend,
  LogCandidate,
  LogCheckpointRow,
  LogStore,
} from '../log.js';
import { isUnavailable, unavailable } from './errors.js';
import { withClient, withTransaction } from './pool.js';

/** Advisory lock key of the log's growth ("erxl" in ASCII). */
export const LOG_LOCK_KEY = 0x6572786c;

interface CheckpointRecord {
  size: string;
  root: Buffer;
  note: string;
  signed_at: string;
}

const toCheckpoint = (r: CheckpointRecord): LogCheckpointRow => ({
  size: Number(r.size),
  root: r.root,
  note: r.note,
  signedAt: Number(r.signed_at),
});

/** The log's SQL on PostgreSQL. */
export const POSTGRES_LOG_SQL = {
  head: 'SELECT * FROM log_checkpoints ORDER BY size DESC LIMIT 1',
  lock: 'SELECT pg_advisory_xact_lock($1)',
  checkpointsAfter: 'SELECT * FROM log_checkpoints WHERE size > $1 ORDER BY size LIMIT $2',
  hashes: 'SELECT idx, hash FROM log_hashes WHERE idx = ANY($1::bigint[])',
  candidates: `SELECT feed_seq AS "feedSeq", id, prescription_id AS "prescriptionId", seq,
    parent_hash AS "parentHash", body, hash, signature FROM events WHERE feed_seq > $1
    ORDER BY feed_seq LIMIT $2`,
  leafRows: `SELECT ${LEAF_COLUMNS} FROM log_leaves WHERE idx >= $1 ORDER BY idx LIMIT $2`,
  feedReadAt: 'SELECT feed_seq FROM log_leaves WHERE idx = $1',
  newestOfChains: `SELECT DISTINCT ON (chain) ${LEAF_COLUMNS} FROM log_leaves
    WHERE chain = ANY($1::bytea[]) AND idx < $2 ORDER BY chain, idx DESC`,
  loggedHashes: 'SELECT DISTINCT hash FROM log_leaves WHERE hash = ANY($1::text[]) AND idx < $2',
  chainLeaves: chainLeavesSql('$1', '$2'),
  eventHashAt: 'SELECT hash FROM events WHERE prescription_id = $1 AND seq = $2',
  leafEvents: leafEventsSql('(SELECT unnest($1::text[]))', '(SELECT unnest($2::bigint[]))'),
  putLeaves: `INSERT INTO log_leaves (${LEAF_COLUMNS})
    SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::integer[], $4::text[], $5::bigint[],
      $6::text[], $7::bigint[])
    ON CONFLICT (idx) DO UPDATE SET chain = excluded.chain, place = excluded.place,
      hash = excluded.hash, prev = excluded.prev, event_id = excluded.event_id,
      feed_seq = excluded.feed_seq`,
  putHashes: `INSERT INTO log_hashes (idx, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])
    ON CONFLICT DO NOTHING`,
  thin: `DELETE FROM log_checkpoints WHERE size = $1
    AND NOT EXISTS (SELECT 1 FROM log_cosignatures c WHERE c.size = $1)
    AND EXISTS (SELECT 1 FROM log_checkpoints p WHERE p.size < $1 AND p.signed_at > $2)`,
  putCheckpoint:
    'INSERT INTO log_checkpoints (size, root, note, signed_at) VALUES ($1, $2, $3, $4)',
  positions: `SELECT event_id AS id, idx + 1 AS position FROM log_leaves
    WHERE event_id = ANY($1::text[])`,
  addCosignature: `INSERT INTO log_cosignatures (size, witness, line) VALUES ($1, $2, $3)
    ON CONFLICT DO NOTHING`,
  cosignatures: 'SELECT line FROM log_cosignatures WHERE size = $1 ORDER BY witness',
} as const;

/** The log over a store's pool. */
export class PostgresLog implements LogStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error) : error;
    }
  }

  #query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return this.#guard(() =>
      withClient(this.#pool, async (c) => (await c.query<R>(text, values)).rows),
    );
  }

  async head(): Promise<LogCheckpointRow | undefined> {
    const [r] = await this.#query<CheckpointRecord>(POSTGRES_LOG_SQL.head);
    return r && toCheckpoint(r);
  }

  async checkpointsAfter(size: number, limit: number): Promise<LogCheckpointRow[]> {
    const rows = await this.#query<CheckpointRecord>(POSTGRES_LOG_SQL.checkpointsAfter, [
      size,
      limit,
    ]);
    return rows.map(toCheckpoint);
  }

  async readHashes(indexes: readonly number[]): Promise<Uint8Array[]> {
    const rows = await this.#query<{ idx: string; hash: Buffer }>(POSTGRES_LOG_SQL.hashes, [
      [...new Set(indexes)],
    ]);
    const found = new Map(rows.map((r) => [Number(r.idx), r.hash]));
    return indexes.map((i) => {
      const hash = found.get(i);
      if (hash === undefined) throw new Error(`log hash ${i} is not stored`);
      return hash;
    });
  }

  async readCandidates(after: number, limit: number): Promise<LogCandidate[]> {
    if (limit <= 0) return [];
    const rows = await this.#query<LogCandidate & { feedSeq: string }>(
      POSTGRES_LOG_SQL.candidates,
      [after, limit],
    );
    return rows.map((r) => ({ ...r, feedSeq: Number(r.feedSeq) }));
  }

  async readLeafRows(from: number, limit: number): Promise<LeafRow[]> {
    if (limit <= 0) return [];
    const rows = await this.#query<LeafRecord>(POSTGRES_LOG_SQL.leafRows, [from, limit]);
    return rows.map(toLeafRow);
  }

  async feedReadAt(size: number): Promise<number> {
    if (size === 0) return 0;
    const [r] = await this.#query<{ feed_seq: string }>(POSTGRES_LOG_SQL.feedReadAt, [size - 1]);
    return Number(r?.feed_seq ?? 0);
  }

  async newestOfChains(chains: readonly Uint8Array[], size: number): Promise<Map<string, LeafRow>> {
    if (chains.length === 0) return new Map();
    const rows = await this.#query<LeafRecord>(POSTGRES_LOG_SQL.newestOfChains, [
      chains.map((c) => Buffer.from(c)),
      size,
    ]);
    return new Map(rows.map((r) => [Buffer.from(r.chain!).toString('hex'), toLeafRow(r)]));
  }

  async loggedHashes(hashes: readonly string[], size: number): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.#query<{ hash: string }>(POSTGRES_LOG_SQL.loggedHashes, [hashes, size]);
    return new Set(rows.map((r) => r.hash));
  }

  async chainLeaves(chain: Uint8Array, size: number): Promise<ChainLeafRow[]> {
    const rows = await this.#query<LeafRecord & { feed_seq_now: string | null }>(
      POSTGRES_LOG_SQL.chainLeaves,
      [Buffer.from(chain), size],
    );
    return rows.map(toChainLeafRow);
  }

  async leafEvents(eventIds: readonly string[], feedSeqs: readonly number[]): Promise<LeafEvent[]> {
    const rows = await this.#query<Parameters<typeof toLeafEvent>[0]>(POSTGRES_LOG_SQL.leafEvents, [
      eventIds,
      feedSeqs,
    ]);
    return rows.map(toLeafEvent);
  }

  async eventHashAt(prescriptionId: string, seq: number): Promise<string | undefined> {
    const [r] = await this.#query<{ hash: string }>(POSTGRES_LOG_SQL.eventHashAt, [
      prescriptionId,
      seq,
    ]);
    return r?.hash;
  }

  async append(growth: LogAppend): Promise<boolean> {
    return this.#guard(() =>
      withTransaction(this.#pool, async (client) => {
        // Each statement its own snapshot: the size read after the lock is the last writer's.
        await client.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
        await client.query(POSTGRES_LOG_SQL.lock, [LOG_LOCK_KEY]);
        const { rows } = await client.query<CheckpointRecord>(POSTGRES_LOG_SQL.head);
        const head = rows[0];
        if (Number(head?.size ?? 0) !== growth.fromSize) return false;
        if (head !== undefined) {
          await client.query(POSTGRES_LOG_SQL.thin, [
            head.size,
            growth.checkpoint.signedAt - KEPT_CHECKPOINT_SPACING_MS,
          ]);
        }
        await client.query(POSTGRES_LOG_SQL.putLeaves, leafColumns(growth.leaves));
        await client.query(POSTGRES_LOG_SQL.putHashes, [
          growth.hashes.map((h) => h.index),
          growth.hashes.map((h) => Buffer.from(h.hash)),
        ]);
        const c = growth.checkpoint;
        await client.query(POSTGRES_LOG_SQL.putCheckpoint, [
          c.size,
          Buffer.from(c.root),
          c.note,
          c.signedAt,
        ]);
        return true;
      }),
    );
  }

  async positions(eventIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.#query<{ id: string; position: string }>(POSTGRES_LOG_SQL.positions, [
      eventIds,
    ]);
    return new Map(rows.map((r) => [r.id, Number(r.position)]));
  }

  async addCosignature(size: number, witness: string, line: string): Promise<void> {
    await this.#query(POSTGRES_LOG_SQL.addCosignature, [size, witness, line]);
  }

  async cosignatures(size: number): Promise<string[]> {
    const rows = await this.#query<{ line: string }>(POSTGRES_LOG_SQL.cosignatures, [size]);
    return rows.map((r) => r.line);
  }
}
