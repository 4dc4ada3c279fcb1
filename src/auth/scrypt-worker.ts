/**
 * A thread of {@link ScryptPool} (`./scrypt-pool.ts`): runs each scrypt job with `scryptSync`, so
 * the work stays on this thread and never enters libuv's pool, where WebCrypto verifies ledger
 * signatures. One job at a time; the pool holds the queue.
 *
 * Unlike erx's other background threads it keeps the event loop's priority: a token request is
 * answered only once its hash is made, and below the event loop the hash waits for every busy
 * thread on the machine (under a flood of wrong secrets, the event loop answering the flood
 * itself: a 70 ms hash then took 0.3 to 1.1 s). One thread leaves the event loop a core of its
 * own, and the failure budget and the queue bound limit what callers can make it hash.
 */
import { scryptSync } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { ScryptAnswer, ScryptRequest } from './scrypt-pool.js';
import { scryptMaxmem } from './secret-hash.js';

/** Answers the pool's jobs on `port`. */
function serve(port: MessagePort): void {
  port.on('message', (request: ScryptRequest) => {
    let answer: ScryptAnswer;
    try {
      const { job } = request;
      const key = scryptSync(job.secret, job.salt, job.keyLength, {
        N: job.n,
        r: job.r,
        p: job.p,
        maxmem: scryptMaxmem(job),
      });
      answer = { id: request.id, key: new Uint8Array(key) };
    } catch (error) {
      answer = { id: request.id, error: String(error) };
    }
    port.postMessage(answer);
  });
}

if (parentPort === null) throw new Error('scrypt-worker runs as a worker thread of ScryptPool');
serve(parentPort);
