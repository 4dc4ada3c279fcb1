/**
 * WAL checkpoints on a background thread, for the SQLite store of a running service. By default
 * SQLite checkpoints on the connection that commits, right after a COMMIT once the WAL holds 1,000
 * pages: the event loop then copies those pages into the database file and waits for its fsync.
 * On a large database the pages are scattered, and such a COMMIT blocks every request in flight
 * for 10–25 ms (docs/performance.md).
 *
 * Here a thread with its own connection runs a PASSIVE checkpoint every 100 ms: it copies what
 * has been committed since, never waiting for readers or writers and never holding the write lock.
 *
 * The WAL must also start over now and then, or it grows for as long as writes keep coming: a
 * writer reuses it from its start only when every page in it has been copied, which a thread
 * racing a steady stream of commits never sees. SQLite's answer, a checkpoint on the committing
 * connection past a number of pages, put the database file's fsync on the event loop: 30–50 ms
 * (and up to 100) every few hundred ms of writes on the bench's scale set, whatever the pages to
 * copy (docs/performance.md). So once the WAL holds {@link RESTART_FRAMES} pages, the thread
 * copies again, in passes each shorter than the last, until a pass finds only a few new pages;
 * then it holds the writer's next COMMIT (`./commit-hold.ts`) while it copies the rest. Nothing
 * is left uncopied, and the writer's next COMMIT starts the WAL over. The event loop serves
 * everything else meanwhile; only the queued writes wait, for `MAX_HOLD_MS` at most.
 * Past {@link FALLBACK_AUTOCHECKPOINT} pages the committing connection checkpoints by itself, as
 * SQLite does, in case the thread cannot keep up.
 *
 * Durability is unchanged: a commit is acknowledged once the WAL is synced, and a checkpoint syncs
 * the database file before any of the WAL is reused.
 */
import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../background-thread.js';
import { CommitHold } from './commit-hold.js';

/** SQLite's own default: the committing connection checkpoints once the WAL has this many pages. */
export const SQLITE_AUTOCHECKPOINT = 1_000;

/** The WAL starts over once it holds this many pages (64 MB with SQLite's 4 KiB pages). */
export const RESTART_FRAMES = 16_000;

/** After a catch-up pass that found at most this many new pages, the last pass holds the writer. */
export const HOLD_FRAMES = 64;

/** Catch-up passes at most before the last one (each copies what came in during the one before). */
const MAX_CATCH_UP_PASSES = 6;

/** While the thread runs, the committing connection checkpoints by itself only past this. */
export const FALLBACK_AUTOCHECKPOINT = 4 * RESTART_FRAMES;

/** How often the thread checkpoints what has been committed since. */
const CHECKPOINT_PERIOD_MS = 100;

/** What the checkpoint thread (`./checkpoint-thread.ts`) is started with. */
export interface CheckpointThreadData {
  readonly file: string;
  readonly periodMs: number;
  readonly restartFrames: number;
  readonly holdFrames: number;
  /** {@link CommitHold.memory} of the committing connection's hold. */
  readonly hold: SharedArrayBuffer;
  readonly maxPasses: number;
}

/** When the WAL starts over and when the writer checkpoints by itself, in WAL pages. */
export interface WalBounds {
  readonly restartFrames: number;
  readonly fallbackFrames: number;
}

const WAL_BOUNDS: WalBounds = {
  restartFrames: RESTART_FRAMES,
  fallbackFrames: FALLBACK_AUTOCHECKPOINT,
};

/** The background checkpoint thread of one database file (see the file comment). */
export class BackgroundCheckpoints {
  /** The thread's hold on the writer's batches (give it to the connection's group commit). */
  readonly hold = new CommitHold();
  readonly #thread: Worker;
  readonly #exited: Promise<void>;

  /**
   * Starts checkpointing `file`, which `db` (the committing connection) has open. `bounds` are
   * {@link RESTART_FRAMES} and {@link FALLBACK_AUTOCHECKPOINT} unless a test sets others.
   */
  constructor(db: Database.Database, file: string, bounds: WalBounds = WAL_BOUNDS) {
    db.pragma(`wal_autocheckpoint = ${bounds.fallbackFrames}`);
    const workerData: CheckpointThreadData = {
      file,
      periodMs: CHECKPOINT_PERIOD_MS,
      restartFrames: bounds.restartFrames,
      holdFrames: HOLD_FRAMES,
      hold: this.hold.memory,
      maxPasses: MAX_CATCH_UP_PASSES,
    };
    this.#thread = startThread('./checkpoint-thread', import.meta.url, {
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    this.#thread.unref();
    this.#thread.on('error', (error) => {
      process.emitWarning(
        `SQLite checkpoints are back on the committing connection: ${error.message}`,
        'ErxWarning',
      );
    });
    // However the thread ends, the committing connection checkpoints as SQLite does by default.
    this.#exited = new Promise((resolve) => {
      this.#thread.once('exit', () => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
        resolve();
      });
    });
  }

  /** Stops the thread once its current checkpoint is done, and closes its connection. */
  stop(): Promise<void> {
    // Held open until the thread has closed its connection.
    this.#thread.ref();
    this.#thread.postMessage('stop');
    return this.#exited;
  }
}
