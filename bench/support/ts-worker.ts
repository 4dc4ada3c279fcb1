/**
 * The bench's worker threads (started with `startThread` of src/background-thread.ts, which loads
 * TypeScript through tsx when the bench runs from its sources): the first answer of one.
 */
import type { Worker } from 'node:worker_threads';

/** Resolves with the first message of `worker`, rejects on its error or an exit without one. */
export function firstMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number): void =>
      reject(new Error(`worker exited with ${code} before answering`));
    worker.once('message', (message: T) => {
      worker.off('exit', onExit);
      resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', onExit);
  });
}
