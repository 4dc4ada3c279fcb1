/**
 * The WAL checkpoint thread of {@link BackgroundCheckpoints} (`./background-checkpoints.ts`, where
 * the why is): a PASSIVE checkpoint on its own connection every `periodMs`; once the WAL holds
 * `restartFrames` pages, catch-up passes and a last one under the hold on the writer's COMMITs.
 * Any message stops it.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../background-thread.js';
import type { CheckpointThreadData } from './background-checkpoints.js';
import { holdCommits } from './commit-hold.js';

const port = parentPort;
if (port === null) throw new Error('checkpoint-thread runs as a worker thread');
const data = workerData as CheckpointThreadData;

lowerThreadPriority();

const db = new Database(data.file, { fileMustExist: true, timeout: 1000 });
// The checkpoint syncs the database file before the WAL it copied may be reused.
db.pragma('synchronous = FULL');
const checkpoint = db.prepare<[], { busy: number; log: number; checkpointed: number }>(
  'PRAGMA wal_checkpoint(PASSIVE)',
);

/**
 * One PASSIVE checkpoint: `{ log, checkpointed }` in WAL pages, or undefined when another
 * connection (another process on the file) is checkpointing.
 */
function pass(): { log: number; checkpointed: number } | undefined {
  try {
    const done = checkpoint.get();
    return done !== undefined && done.busy === 0 ? done : undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') throw error;
    return undefined;
  }
}

const timer = setInterval(() => {
  let done = pass();
  if (done === undefined || done.log < data.restartFrames) return;
  for (let i = 0; i < data.maxPasses; i++) {
    const next = pass();
    if (next === undefined) return;
    // A pass copies up to the end of the WAL as it found it: the new pages are those past the
    // end the pass before found (fewer than none if the WAL has started over meanwhile).
    const fresh = next.log - done.log;
    done = next;
    if (fresh <= data.holdFrames) {
      holdCommits(data.hold, pass);
      return;
    }
  }
}, data.periodMs);

port.once('message', () => {
  clearInterval(timer);
  db.close();
  port.close();
});
