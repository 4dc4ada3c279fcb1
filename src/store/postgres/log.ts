/**
 * The transparency log on PostgreSQL (`Store.log`, `../log.ts`). Growths are written one at a time
 * across instances: each takes a transaction-scoped advisory lock, then reads the newest size and
 * writes nothing if another instance's growth moved it, so the tree never has a gap or a leaf
 * twice. Leaves are the events numbered by the feed (`./feed.ts`), which numbers only what has
 * committed, in an order that never changes.
 */
import type pg from 'pg';
import { KEPT_CHECKPOINT_SPACING_MS } from '../log.js';
import type { LogAppend, LogCheckpointRow, LogLeaf, LogStore } from '../log.js';
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
  leaves: `SELECT feed_seq AS position, id, hash FROM events WHERE feed_seq > $1
    ORDER BY feed_seq LIMIT $2`,
  putHashes: `INSERT INTO log_hashes (idx, hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])
    ON CONFLICT DO NOTHING`,
  thin: `DELETE FROM log_checkpoints WHERE size = $1
    AND NOT EXISTS (SELECT 1 FROM log_cosignatures c WHERE c.size = $1)
    AND EXISTS (SELECT 1 FROM log_checkpoints p WHERE p.size < $1 AND p.signed_at > $2)`,
  putCheckpoint:
    'INSERT INTO log_checkpoints (size, root, note, signed_at) VALUES ($1, $2, $3, $4)',
  newestLogged: `SELECT feed_seq AS position, id, hash FROM events
    WHERE prescription_id = $1 AND feed_seq <= $2 ORDER BY seq DESC LIMIT 1`,
  positions:
    'SELECT id, feed_seq AS position FROM events WHERE id = ANY($1::text[]) AND feed_seq IS NOT NULL',
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

  async newestLogged(prescriptionId: string, size: number): Promise<LogLeaf | undefined> {
    const [r] = await this.#query<{ position: string; id: string; hash: string }>(
      POSTGRES_LOG_SQL.newestLogged,
      [prescriptionId, size],
    );
    return r && { position: Number(r.position), id: r.id, hash: r.hash };
  }

  async readLeaves(after: number, limit: number): Promise<LogLeaf[]> {
    if (limit <= 0) return [];
    const rows = await this.#query<{ position: string; id: string; hash: string }>(
      POSTGRES_LOG_SQL.leaves,
      [after, limit],
    );
    return rows.map((r) => ({ position: Number(r.position), id: r.id, hash: r.hash }));
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
