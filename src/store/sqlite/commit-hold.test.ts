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
 * A thread that raises the hold on `memory`, keeps it up for `ms`, and answers when it raised it
 * (`up`), when its work under the hold ended (`lowering`) and when it had lowered it (`down`), in
 * `performance.timeOrigin + now()` milliseconds.
 */
function holdingThread(
  memory: SharedArrayBuffer,
  ms: number,
): Promise<{ up: number; lowering: number; down: number }> {
  const thread = startThread('../../../test/support/holding-thread', import.meta.url, {
    workerData: { memory, ms },
  });
  return new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
}

const clock = (): number => performance.timeOrigin + performance.now();

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
    const thread = holdingThread(hold.memory, 0);
    await sleep(60);
    const left = clock();
    hold.leave();
    const { down } = await thread;
    assert.ok(down >= left, `the thread's work ended ${left - down} ms before the batch did`);
  });

  it('keeps a group commit’s batch queued while the thread holds, and the event loop free', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x INTEGER NOT NULL)');
    const hold = new CommitHold();
    const commits = new GroupCommit(db, hold);
    try {
      // Held for half of MAX_HOLD_MS: long enough for timers to run meanwhile, and short enough
      // that a thread woken late on a loaded machine still lowers it before the writer stops waiting.
      const thread = holdingThread(hold.memory, MAX_HOLD_MS / 2);
      // Until the thread has raised the hold.
      while (hold.enter()) {
        hold.leave();
        await sleep(1);
      }
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await commits.run(() => db.prepare('INSERT INTO t (x) VALUES (1)').run());
      const committedAt = clock();
      clearInterval(timer);
      // `lowering` is read under the hold: the thread may be descheduled between lowering the hold
      // and reading the clock again, while the write commits.
      const { lowering } = await thread;
      assert.ok(committedAt >= lowering, 'the write committed after the hold was lowered');
      assert.ok(ticks >= 2, `timers ran while the write waited (${ticks})`);
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM t').get(), { n: 1 });
    } finally {
      db.close();
    }
  });
});
