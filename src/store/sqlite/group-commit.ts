/**
 * Group commit on one SQLite connection: the writes that arrive within one event-loop turn share
 * one `BEGIN IMMEDIATE` transaction and so one fsync, each in its own savepoint. A caller hears of
 * its write only once the COMMIT holding it has returned, so an acknowledged write is on disk.
 *
 * The writes are queued and the whole batch runs in one synchronous step (begin, writes, commit).
 * So no transaction of ours stays open across turns: reads on this connection never see a write
 * before it is committed, and two connections of one process never wait on each other's lock.
 */
import type Database from 'better-sqlite3';
import type { CommitHold } from './commit-hold.js';

/** A queued write: `run` performs it and returns how to acknowledge it after the COMMIT. */
interface Write {
  readonly run: () => () => void;
  readonly reject: (error: unknown) => void;
}

/** Writes that wait for the next batch and go in after its own (`GroupCommit.seal`). */
export interface Sealer {
  /** Whether it has writes waiting. */
  pending(): boolean;
  /**
   * In the batch's transaction, after its writes, in a savepoint of its own: answers what to run
   * right after the COMMIT, before any write of the batch is acknowledged. It must not throw there.
   */
  run(): (() => void) | undefined;
  /** What `run` wrote was not committed (it threw, or the batch failed). */
  failed(error: unknown): void;
}

/** How long to wait for a transaction someone else opened on the connection (the bulk loader). */
const FOREIGN_TRANSACTION_RETRY_MS = 1;

/** How often a batch held by the checkpoint thread (`./commit-hold.ts`) tries again, in ms. */
const HOLD_RETRY_MS = 1;

/** Batches the writes of one connection into shared transactions (see the file comment). */
export class GroupCommit {
  readonly #db: Database.Database;
  readonly #hold: CommitHold | undefined;
  /**
   * Runs a write in a savepoint of the open transaction (its own transaction outside one). Built
   * once: better-sqlite3 builds a wrapper on every `transaction()`, about 6 µs a write, several
   * times a small insert's cost (docs/performance.md).
   */
  readonly #savepoint: (work: () => unknown) => unknown;
  #pending: Write[] = [];
  #scheduled = false;
  #sealer: Sealer | undefined;

  /** `hold`: the checkpoint thread's hold on the batches, when one runs. */
  constructor(db: Database.Database, hold?: CommitHold) {
    this.#db = db;
    this.#hold = hold;
    this.#savepoint = db.transaction((work: () => unknown) => work());
  }

  /**
   * Runs `work` (synchronous statements) in the batch at the end of this turn. Resolves with its
   * result once the batch is committed; if `work` throws, undoes `work` alone and rejects.
   * `committed` runs right after that COMMIT, in the same synchronous step, so no read on this
   * connection comes between the two; it must not throw. It is not called when the caller's own
   * transaction holds the write, which may still roll back.
   */
  run<T>(work: () => T, committed?: (value: T) => void): Promise<T> {
    if (this.#db.inTransaction) return this.#runInForeignTransaction(work);
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({
        run: () => {
          const value = this.#savepoint(work) as T;
          return () => {
            committed?.(value);
            resolve(value);
          };
        },
        reject,
      });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#onTurnEnd());
      }
    });
  }

  /** Ends every batch with `sealer`'s waiting writes (one sealer per connection). */
  seal(sealer: Sealer): void {
    if (this.#sealer !== undefined) throw new Error('the batches are sealed already');
    this.#sealer = sealer;
  }

  /** Commits the sealer's waiting writes at the end of this turn, in a batch of their own if need be. */
  soon(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#onTurnEnd());
  }

  /** Commits every queued write now (before the connection closes). */
  flush(): void {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0 && this.#sealer?.pending() !== true) return;
    if (this.#db.inTransaction) {
      const error = new Error('writes pending while a transaction opened elsewhere is still open');
      for (const write of batch) write.reject(error);
      return;
    }
    this.#commit(batch);
  }

  /** The caller opened the transaction and commits it: the write is a savepoint, answered now. */
  #runInForeignTransaction<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(this.#savepoint(work) as T);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #onTurnEnd(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0 && this.#sealer?.pending() !== true) return;
    // Committing now would commit someone else's transaction (wait until they have), or the
    // checkpoint thread is copying the last pages of the WAL (the batch waits, and grows).
    const waitMs = this.#db.inTransaction
      ? FOREIGN_TRANSACTION_RETRY_MS
      : this.#hold && !this.#hold.enter()
        ? HOLD_RETRY_MS
        : 0;
    if (waitMs > 0) {
      this.#scheduled = true;
      setTimeout(() => this.#onTurnEnd(), waitMs);
      return;
    }
    try {
      this.flush();
    } finally {
      this.#hold?.leave();
    }
  }

  #commit(batch: Write[]): void {
    const acknowledge: (() => void)[] = [];
    let sealed = false;
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      for (const write of batch) {
        try {
          acknowledge.push(write.run());
        } catch (error) {
          // Some errors (I/O, disk full) roll the whole transaction back: the batch fails.
          if (!this.#db.inTransaction) throw error;
          write.reject(error);
        }
      }
      const seal = this.#runSealer();
      sealed = seal !== undefined;
      if (seal !== undefined) acknowledge.unshift(seal);
      this.#db.exec('COMMIT');
    } catch (error) {
      // Rejecting a write already rejected above changes nothing.
      for (const write of batch) write.reject(error);
      if (sealed) this.#sealer?.failed(error);
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      return;
    }
    for (const ack of acknowledge) ack();
  }

  /** The sealer's writes in the open transaction; a sealer that throws leaves the batch alone. */
  #runSealer(): (() => void) | undefined {
    const sealer = this.#sealer;
    if (sealer === undefined || !sealer.pending()) return undefined;
    try {
      return this.#savepoint(() => sealer.run()) as (() => void) | undefined;
    } catch (error) {
      sealer.failed(error);
      // Some errors (I/O, disk full) roll the whole transaction back: the batch fails too.
      if (!this.#db.inTransaction) throw error;
      return undefined;
    }
  }
}
