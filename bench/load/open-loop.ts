/** Runs one open-loop measurement in a worker thread (see `open-loop-worker.ts`). */
import type { OpenLoopJob, OpenLoopResult } from './open-loop-protocol.js';
import { startThread } from '../../src/background-thread.js';
import { firstMessage } from '../support/ts-worker.js';

/** Sends `job.rate` calls per second for `job.seconds` and answers what came back. */
export async function openLoop(job: OpenLoopJob): Promise<OpenLoopResult> {
  const worker = startThread('./open-loop-worker', import.meta.url, { workerData: job });
  try {
    return await firstMessage<OpenLoopResult>(worker);
  } finally {
    await worker.terminate();
  }
}
