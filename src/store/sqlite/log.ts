/**
 * The transparency log on SQLite (`Store.log`, `../log.ts`). A growth is written in the group
 * commit with the appends of its turn (one sync to disk for all): it reads the newest size first,
 * in that transaction, and writes nothing if another growth moved it. A running service's growths
 * wait for the next batch of writes instead (`appendLater`), so they take no COMMIT of their own.
 */
import type Database from 'better-sqlite3';
import { KEPT_CHECKPOINT_SPACING_MS } from '../log.js';
import {
  LEAF_COLUMNS,
  chainLeavesSql,
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
import type { GroupCommit } from './group-commit.js';

interface CheckpointRecord {
  size: number;
  root: Buffer;
  note: string;
  signed_at: number;
}

/** How long a growth waits for a batch of writes before it commits in one of its own, ms. */
const LATER_MS = 20;

/** A growth waiting for a batch, and who hears when it is written. */
interface Later {
  readonly growth: LogAppend;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const toCheckpoint = (r: CheckpointRecord): LogCheckpointRow => ({
  size: r.size,
  root: r.root,
  note: r.note,
  signedAt: r.signed_at,
});

/** The log's statements over one connection (the schema must be migrated). */
export class SqliteLog implements LogStore {
  readonly #head: Database.Statement<[], CheckpointRecord>;
  readonly #checkpointsAfter: Database.Statement<[number, number], CheckpointRecord>;
  readonly #candidates: Database.Statement<[number, number], LogCandidate>;
  readonly #leafRows: Database.Statement<[number, number], LeafRecord>;
  readonly #feedReadAt: Database.Statement<[number], { feed_seq: number }>;
  readonly #newestOfChain: Database.Statement<[Buffer, number], LeafRecord>;
  readonly #loggedHashes: Database.Statement<[string, number], { hash: string }>;
  readonly #chainLeaves: Database.Statement<
    [Buffer, number],
    LeafRecord & { feed_seq_now: number | null }
  >;
  readonly #eventHashAt: Database.Statement<[string, number], { hash: string }>;
  readonly #leafEvents: Database.Statement<[string, string], Parameters<typeof toLeafEvent>[0]>;
  readonly #hashes: Database.Statement<[string], { idx: number; hash: Buffer }>;
  readonly #positions: Database.Statement<[string], { id: string; position: number }>;
  readonly #cosignatures: Database.Statement<[number], { line: string }>;
  readonly #addCosignature: Database.Statement<[number, string, string]>;
  readonly #commits: GroupCommit;
  readonly #write: (growth: LogAppend) => boolean;
  readonly #putHashes: (growth: LogAppend) => void;
  /** Keeps `growth`'s checkpoint as the newest, over `head`. */
  readonly #putCheckpoint: (growth: LogAppend, head: CheckpointRecord | undefined) => void;
  readonly #hashCount: Database.Statement<[], { n: number }>;
  /** Growths waiting for the next batch, oldest first; those in the batch being committed. */
  #later: Later[] = [];
  #sealing: Later[] = [];
  #laterTimer: NodeJS.Timeout | undefined;

  constructor(db: Database.Database, commits: GroupCommit) {
    this.#commits = commits;
    this.#hashes = db.prepare(
      'SELECT idx, hash FROM log_hashes WHERE idx IN (SELECT value FROM json_each(?))',
    );
    this.#positions = db.prepare(
      `SELECT event_id AS id, idx + 1 AS position FROM log_leaves
       WHERE event_id IN (SELECT value FROM json_each(?))`,
    );
    this.#candidates = db.prepare(
      `SELECT feed_seq AS feedSeq, id, prescription_id AS prescriptionId, seq,
         parent_hash AS parentHash, body, hash, signature
       FROM events WHERE feed_seq > ? ORDER BY feed_seq LIMIT ?`,
    );
    this.#leafRows = db.prepare(
      `SELECT ${LEAF_COLUMNS} FROM log_leaves WHERE idx >= ? ORDER BY idx LIMIT ?`,
    );
    this.#feedReadAt = db.prepare('SELECT feed_seq FROM log_leaves WHERE idx = ?');
    this.#newestOfChain = db.prepare(
      `SELECT ${LEAF_COLUMNS} FROM log_leaves WHERE chain = ? AND idx < ? ORDER BY idx DESC LIMIT 1`,
    );
    this.#loggedHashes = db.prepare(
      `SELECT DISTINCT hash FROM log_leaves
       WHERE hash IN (SELECT value FROM json_each(?)) AND idx < ?`,
    );
    this.#chainLeaves = db.prepare(chainLeavesSql('?', '?'));
    this.#eventHashAt = db.prepare('SELECT hash FROM events WHERE prescription_id = ? AND seq = ?');
    const list = '(SELECT value FROM json_each(?))';
    this.#leafEvents = db.prepare(leafEventsSql(list, list));
    this.#head = db.prepare('SELECT * FROM log_checkpoints ORDER BY size DESC LIMIT 1');
    this.#hashCount = db.prepare('SELECT coalesce(max(idx) + 1, 0) AS n FROM log_hashes');
    this.#checkpointsAfter = db.prepare(
      'SELECT * FROM log_checkpoints WHERE size > ? ORDER BY size LIMIT ?',
    );
    this.#cosignatures = db.prepare(
      'SELECT line FROM log_cosignatures WHERE size = ? ORDER BY witness',
    );
    this.#addCosignature = db.prepare(
      'INSERT INTO log_cosignatures (size, witness, line) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    const putHash = db.prepare('INSERT OR IGNORE INTO log_hashes (idx, hash) VALUES (?, ?)');
    const putLeaf = db.prepare(
      `INSERT OR REPLACE INTO log_leaves (${LEAF_COLUMNS})
       VALUES (@index, @chain, @place, @hash, @prev, @eventId, @feedSeq)`,
    );
    const putCheckpoint = db.prepare(
      'INSERT INTO log_checkpoints (size, root, note, signed_at) VALUES (?, ?, ?, ?)',
    );
    const thin = db.prepare(
      `DELETE FROM log_checkpoints WHERE size = @head
         AND NOT EXISTS (SELECT 1 FROM log_cosignatures c WHERE c.size = @head)
         AND EXISTS (SELECT 1 FROM log_checkpoints p WHERE p.size < @head AND p.signed_at > @since)`,
    );
    this.#putHashes = (growth) => {
      for (const { index, hash } of growth.hashes) putHash.run(index, Buffer.from(hash));
      for (const leaf of growth.leaves) {
        putLeaf.run({
          ...leaf,
          chain: leaf.chain === null ? null : Buffer.from(leaf.chain),
          prev: leaf.prev ?? null,
        });
      }
    };
    this.#putCheckpoint = (growth, head) => {
      const c = growth.checkpoint;
      if (head !== undefined) {
        thin.run({ head: head.size, since: c.signedAt - KEPT_CHECKPOINT_SPACING_MS });
      }
      putCheckpoint.run(c.size, Buffer.from(c.root), c.note, c.signedAt);
    };
    this.#write = (growth: LogAppend): boolean => {
      const head = this.#head.get();
      if ((head?.size ?? 0) !== growth.fromSize) return false;
      this.#putHashes(growth);
      this.#putCheckpoint(growth, head);
      return true;
    };
    commits.seal({
      pending: () => this.#later.length > 0,
      run: () => this.#writeLater(),
      failed: (error) => {
        for (const later of this.#sealing) later.reject(error);
        this.#sealing = [];
      },
    });
  }

  /** In the batch's transaction: the growths waiting, in order; how to tell them once committed. */
  #writeLater(): () => void {
    clearTimeout(this.#laterTimer);
    this.#laterTimer = undefined;
    const sealing = this.#later;
    this.#later = [];
    this.#sealing = sealing;
    const refused: { later: Later; error: Error }[] = [];
    for (const later of sealing) {
      const { growth } = later;
      const first = growth.hashes[0]?.index ?? 0;
      if (first > this.#hashCount.get()!.n) {
        refused.push({ later, error: new Error(`log hashes end before ${first}`) });
        continue;
      }
      this.#putHashes(growth);
      const head = this.#head.get();
      if (growth.checkpoint.size > (head?.size ?? 0)) this.#putCheckpoint(growth, head);
    }
    return () => {
      this.#sealing = [];
      for (const later of sealing) {
        const no = refused.find((r) => r.later === later);
        if (no === undefined) later.resolve();
        else later.reject(no.error);
      }
    };
  }

  async head(): Promise<LogCheckpointRow | undefined> {
    const r = this.#head.get();
    return r && toCheckpoint(r);
  }

  async checkpointsAfter(size: number, limit: number): Promise<LogCheckpointRow[]> {
    return this.#checkpointsAfter.all(size, limit).map(toCheckpoint);
  }

  async readHashes(indexes: readonly number[]): Promise<Uint8Array[]> {
    const found = new Map<number, Uint8Array>();
    for (const r of this.#hashes.all(JSON.stringify(indexes))) found.set(r.idx, r.hash);
    return indexes.map((i) => {
      const hash = found.get(i);
      if (hash === undefined) throw new Error(`log hash ${i} is not stored`);
      return hash;
    });
  }

  async readCandidates(after: number, limit: number): Promise<LogCandidate[]> {
    return limit > 0 ? this.#candidates.all(after, limit) : [];
  }

  async readLeafRows(from: number, limit: number): Promise<LeafRow[]> {
    return limit > 0 ? this.#leafRows.all(from, limit).map(toLeafRow) : [];
  }

  async feedReadAt(size: number): Promise<number> {
    return size === 0 ? 0 : (this.#feedReadAt.get(size - 1)?.feed_seq ?? 0);
  }

  async newestOfChains(chains: readonly Uint8Array[], size: number): Promise<Map<string, LeafRow>> {
    const found = new Map<string, LeafRow>();
    for (const chain of chains) {
      const key = Buffer.from(chain).toString('hex');
      if (found.has(key)) continue;
      const r = this.#newestOfChain.get(Buffer.from(chain), size);
      if (r !== undefined) found.set(key, toLeafRow(r));
    }
    return found;
  }

  async loggedHashes(hashes: readonly string[], size: number): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    return new Set(this.#loggedHashes.all(JSON.stringify(hashes), size).map((r) => r.hash));
  }

  async chainLeaves(chain: Uint8Array, size: number): Promise<ChainLeafRow[]> {
    return this.#chainLeaves.all(Buffer.from(chain), size).map(toChainLeafRow);
  }

  async leafEvents(eventIds: readonly string[], feedSeqs: readonly number[]): Promise<LeafEvent[]> {
    return this.#leafEvents
      .all(JSON.stringify(eventIds), JSON.stringify(feedSeqs))
      .map(toLeafEvent);
  }

  async eventHashAt(prescriptionId: string, seq: number): Promise<string | undefined> {
    return this.#eventHashAt.get(prescriptionId, seq)?.hash;
  }

  append(growth: LogAppend): Promise<boolean> {
    return this.#commits.run(() => this.#write(growth));
  }

  appendLater(growth: LogAppend): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#later.push({ growth, resolve, reject });
      this.#laterTimer ??= setTimeout(() => this.#commits.soon(), LATER_MS);
    });
  }

  async positions(eventIds: readonly string[]): Promise<Map<string, number>> {
    const rows = this.#positions.all(JSON.stringify(eventIds));
    return new Map(rows.map((r) => [r.id, r.position]));
  }

  async addCosignature(size: number, witness: string, line: string): Promise<void> {
    this.#addCosignature.run(size, witness, line);
  }

  async cosignatures(size: number): Promise<string[]> {
    return this.#cosignatures.all(size).map((r) => r.line);
  }
}
