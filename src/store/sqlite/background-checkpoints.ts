/**
 * WAL checkpoints on a background thread, for the SQLite store of a running service. By default
 * SQLite checkpoints on the connection that commits, right after a COMMIT once the WAL holds 1,000
 * pages: the event loop then copies those pages into the database file and waits for its fsync.
 * On a large database the pages are scattered, and such a COMMIT blocks every request in flight
 * for 10–25 ms (docs/performance.md).
 *
 * Here a thread with its own connection runs a PASSIVE checkpoint every 100 ms: it copies what
 * has been committed since, never waiting for readers or writers and never holding the write lock.
 * The committing connection still checkpoints, but only past {@link FALLBACK_AUTOCHECKPOINT}
 * pages, when little is left to copy. That also lets the WAL start over: a writer reuses the WAL
 * from its start only once every page in it has been copied, which a thread racing new commits
 * seldom sees. Durability is unchanged: a commit is acknowledged once the WAL is synced, and a
 * checkpoint syncs the database file before any of the WAL is reused.
 */
import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { LOWER_THREAD_PRIORITY } from '../../background-thread.js';

/** SQLite's own default: the committing connection checkpoints once the WAL has this many pages. */
export const SQLITE_AUTOCHECKPOINT = 1_000;

/** While the thread runs, the committing connection checkpoints only past this many WAL pages. */
export const FALLBACK_AUTOCHECKPOINT = 4_000;

/** How often the thread checkpoints what has been committed since. */
const CHECKPOINT_PERIOD_MS = 100;

/** The worker's code: plain CommonJS, so the same module runs from source and compiled. */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
${LOWER_THREAD_PRIORITY}
const db = new Database(workerData.file, { fileMustExist: true, timeout: 1000 });
// The checkpoint syncs the database file before the WAL it copied may be reused.
db.pragma('synchronous = FULL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch (error) {
    // Another connection is checkpointing (another process on the file): next time.
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') throw error;
  }
}, workerData.periodMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** The background checkpoint thread of one database file (see the file comment). */
export class BackgroundCheckpoints {
  readonly #thread: Worker;
  readonly #exited: Promise<void>;

  /** Starts checkpointing `file`, which `db` (the committing connection) has open. */
  constructor(db: Database.Database, file: string) {
    db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT}`);
    this.#thread = new Worker(WORKER_CODE, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        file,
        periodMs: CHECKPOINT_PERIOD_MS,
      },
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
