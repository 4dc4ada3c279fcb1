/**
 * Worker threads running TypeScript modules. Node 20 refuses a `.ts` file as a worker entry
 * point, and the loader hooks of the parent are not inherited by workers, so each worker
 * registers tsx itself before importing its module.
 */
import { Worker } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');

/** Starts `module` (a `file:` URL of a `.ts` file) in a worker thread with `workerData`. */
export function startTsWorker(module: URL, workerData: unknown): Worker {
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

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
