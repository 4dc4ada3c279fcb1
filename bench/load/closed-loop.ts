/** Runs one closed-loop measurement in a worker thread (see `closed-loop-worker.ts`). */
import type { ClosedLoopJob, ClosedLoopResult } from './closed-loop-protocol.js';
import { startThread } from '../../src/background-thread.js';
import { firstMessage } from '../support/ts-worker.js';

/** Drives `job.url` with `job.plan` and answers the measured run. */
export async function closedLoop(job: ClosedLoopJob): Promise<ClosedLoopResult> {
  const worker = startThread('./closed-loop-worker', import.meta.url, { workerData: job });
  try {
    return await firstMessage<ClosedLoopResult>(worker);
  } finally {
    await worker.terminate();
  }
}
