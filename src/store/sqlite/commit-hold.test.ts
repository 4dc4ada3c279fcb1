/** The hold on the writer's COMMITs that the checkpoint thread raises to copy the WAL's last pages. */
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { startThread } from '../../background-thread.js';
// The thread's side is run here on this thread too (Node allows `Atomics.wait` on the main thread).
import { CommitHold, MAX_HOLD_MS, holdCommits } from './commit-hold.js';
import { GroupCommit } from './group-commit.js';

/**
 * A thread that raises the hold on `memory`, keeps it up until `release` is set (at once without
 * it), and answers when it raised it (`up`), when its work under the hold ended (`lowering`) and
 * when it had lowered it (`down`), in `performance.timeOrigin + now()` milliseconds.
 */
function holdingThread(
  memory: SharedArrayBuffer,
  release?: SharedArrayBuffer,
): Promise<{ up: number; lowering: number; down: number }> {
  const thread = startThread('../../../test/support/holding-thread', import.meta.url, {
    workerData: { memory, release },
  });
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
}

const clock = (): number => performance.timeOrigin + performance.now();

/** Lets a {@link holdingThread} given `release` lower its hold. */
function lower(release: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(release), 0, 1);
  Atomics.notify(new Int32Array(release), 0);
}

/** Resolves once the thread has raised the hold on `hold` (read without marking a batch). */
async function raised(hold: CommitHold): Promise<void> {
  while (Atomics.load(new Int32Array(hold.memory), 0) === 0) await sleep(1);
}

describe('the hold on the writer’s commits', () => {
  it('lets a batch run while no hold is up, and holds it while one is', () => {
    const hold = new CommitHold();
    assert.equal(hold.enter(), true);
    hold.leave();
    const during = holdCommits(hold.memory, () => {
      const now = performance.now();
      return [hold.enter(now), hold.enter(now + MAX_HOLD_MS / 2)];
    });
    assert.deepEqual(during, [false, false]);
    assert.equal(hold.enter(), true, 'lowered once the work is done');
    hold.leave();
  });

  it('stops holding a batch once the hold has lasted MAX_HOLD_MS, until it is lowered', () => {
    const hold = new CommitHold();
    holdCommits(hold.memory, () => {
      const start = performance.now();
      assert.equal(hold.enter(start), false);
      assert.equal(hold.enter(start + MAX_HOLD_MS - 1), false);
      assert.equal(hold.enter(start + MAX_HOLD_MS + 1), true, 'a stalled thread is not waited for');
      hold.leave();
      assert.equal(hold.enter(start + MAX_HOLD_MS + 2), true, 'nor for the next batch');
      hold.leave();
    });
    // Lowered and raised again: a new hold is waited for again.
    holdCommits(hold.memory, () => assert.equal(hold.enter(), false));
  });

  it('makes the thread wait for a batch in progress before its work', async () => {
    const hold = new CommitHold();
    assert.equal(hold.enter(), true);
    const thread = holdingThread(hold.memory);
    // Raised: the thread now waits for the batch, however long it runs.
    await raised(hold);
    const left = clock();
    hold.leave();
    const { down } = await thread;
    assert.ok(down >= left, `the thread's work ended ${left - down} ms before the batch did`);
  });

  it('keeps a group commit’s batch queued while the thread holds, and the event loop free', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x INTEGER NOT NULL)');
    // A clock that stands still: the writer never stops waiting on its own (MAX_HOLD_MS is proved
    // above), so the write commits when the thread lowers the hold, and not before.
    const hold = new CommitHold(() => 0);
    const commits = new GroupCommit(db, hold);
    const release = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    try {
      const thread = holdingThread(hold.memory, release);
      await raised(hold);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      let committedAt: number | undefined;
      const write = commits
        .run(() => db.prepare('INSERT INTO t (x) VALUES (1)').run())
        .then(() => (committedAt = clock()));
      // The event loop runs timers while the batch waits, and the batch does not commit.
      while (ticks < 2) await sleep(1);
      clearInterval(timer);
      assert.equal(committedAt, undefined, 'the write committed under the hold');
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM t').get(), { n: 0 });
      lower(release);
      await write;
      // `lowering` is read under the hold: the thread may be descheduled between lowering the hold
      // and reading the clock again, while the write commits.
      const { lowering } = await thread;
      assert.ok(committedAt! >= lowering, 'the write committed after the hold was lowered');
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM t').get(), { n: 1 });
    } finally {
      lower(release);
      db.close();
    }
  });
});
