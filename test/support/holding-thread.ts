/**
 * A thread for the tests of the hold on the writer's COMMITs (`src/store/sqlite/commit-hold.ts`):
 * raises the hold on `workerData.memory`, keeps it up for `workerData.ms`, and answers when it
 * raised it (`up`), when its work under the hold ended (`lowering`, just before the hold drops) and
 * when it had lowered it (`down`), in `performance.timeOrigin + now()` milliseconds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { holdCommits } from '../../src/store/sqlite/commit-hold.js';

const { memory, ms } = workerData as { memory: SharedArrayBuffer; ms: number };
const clock = (): number => performance.timeOrigin + performance.now();
const up = clock();
const lowering = holdCommits(memory, () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return clock();
});
parentPort?.postMessage({ up, lowering, down: clock() });
