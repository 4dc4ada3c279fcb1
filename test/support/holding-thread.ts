/**
 * A thread for the tests of the hold on the writer's COMMITs (`src/store/sqlite/commit-hold.ts`):
 * raises the hold on `workerData.memory` and keeps it up until the test sets the first integer of
 * `workerData.release` (at once without it), and answers when it raised it (`up`), when its work
 * under the hold ended (`lowering`, just before the hold drops) and when it had lowered it
 * (`down`), in `performance.timeOrigin + now()` milliseconds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { holdCommits } from '../../src/store/sqlite/commit-hold.js';

const { memory, release } = workerData as {
  memory: SharedArrayBuffer;
  release?: SharedArrayBuffer;
};
const clock = (): number => performance.timeOrigin + performance.now();
const up = clock();
const lowering = holdCommits(memory, () => {
  if (release !== undefined) {
    const flag = new Int32Array(release);
    while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0);
  }
  return clock();
});
parentPort?.postMessage({ up, lowering, down: clock() });
