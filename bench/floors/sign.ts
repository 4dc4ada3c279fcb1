/**
 * floor-sign: ES384 signatures per second using every core, measured two ways, the faster one
 * being the ceiling: worker threads signing with node:crypto (blocking one-shot calls, one thread
 * per core), and worker threads signing with WebCrypto (the libuv thread pool, several in flight).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { watchCpu } from '../support/cpu-watch.js';
import { startThread } from '../../src/background-thread.js';
import { firstMessage } from '../support/ts-worker.js';
import type { SignMethod, SignWorkerInit, SignWorkerMessage } from './sign-protocol.js';

export interface SignFloor {
  /** Signatures per second of the faster method. */
  readonly opsPerSecond: number;
  readonly method: SignMethod;
  readonly threads: number;
  readonly variants: Record<SignMethod, number>;
  /** node:crypto on one thread: how well signing scales over the cores (OpenSSL locks). */
  readonly singleThread: number;
  /** CPU time per signature on that one thread (hardly changed by a busy neighbour). */
  readonly cpuMicrosPerSignature: number;
}

interface Measured {
  /** Signatures per second, all threads together. */
  readonly rate: number;
  /** CPU time per signature over the signing window (the bench process does nothing else). */
  readonly cpuMicros: number;
}

async function measure(method: SignMethod, threads: number, seconds: number): Promise<Measured> {
  const init: SignWorkerInit = { method, concurrency: 4 };
  const workers: Worker[] = [];
  try {
    const ready = Array.from({ length: threads }, () => {
      const worker = startThread('./sign-worker', import.meta.url, { workerData: init });
      workers.push(worker);
      return firstMessage<SignWorkerMessage>(worker);
    });
    await Promise.all(ready);
    const done = workers.map((w) => firstMessage<SignWorkerMessage>(w));
    const from = Date.now() + 200;
    const stopCpu = watchCpu([]);
    for (const w of workers) w.postMessage({ from, until: from + seconds * 1000 });
    const results = await Promise.all(done);
    const cpu = stopCpu();
    let rate = 0;
    let signatures = 0;
    for (const r of results) {
      if (r.kind !== 'done') continue;
      rate += r.signatures / r.seconds;
      signatures += r.signatures;
    }
    return { rate, cpuMicros: (cpu.benchSeconds * 1e6) / signatures };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Measures both methods for `seconds` each with one worker per core. */
export async function measureSignFloor(seconds: number): Promise<SignFloor> {
  const threads = availableParallelism();
  const variants: Record<SignMethod, number> = {
    'node-crypto-sync': (await measure('node-crypto-sync', threads, seconds)).rate,
    webcrypto: (await measure('webcrypto', threads, seconds)).rate,
  };
  const single = await measure('node-crypto-sync', 1, seconds);
  const method: SignMethod =
    variants['node-crypto-sync'] >= variants.webcrypto ? 'node-crypto-sync' : 'webcrypto';
  return {
    opsPerSecond: variants[method],
    method,
    threads,
    variants,
    singleThread: single.rate,
    cpuMicrosPerSignature: single.cpuMicros,
  };
}
