/**
 * A signing thread of {@link SignPool} (`./sign-pool.ts`): answers each job with the signature of
 * its context's prefix and its rest. A context (a key with the prefix every input signed with it
 * shares) arrives with the first job that needs it and is kept by number.
 */
import type { KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { lowerThreadPriority } from '../background-thread.js';
import { es384Signature } from './es384.js';
import type { SignAnswer, SignJob } from './sign-pool.js';

/** Serves the pool's jobs on `port`; the thread's contexts live as long as the thread. */
function serve(port: MessagePort): void {
  const contexts = new Map<number, { readonly key: KeyObject; readonly prefix: string }>();
  port.on('message', (job: SignJob) => {
    if (job.context !== undefined) contexts.set(job.contextId, job.context);
    let answer: SignAnswer;
    try {
      const context = contexts.get(job.contextId);
      if (context === undefined) throw new Error(`unknown signing context ${job.contextId}`);
      answer = { id: job.id, signature: es384Signature(context.key, context.prefix + job.rest) };
    } catch (error) {
      answer = { id: job.id, error: String(error) };
    }
    port.postMessage(answer);
  });
}

if (parentPort === null) throw new Error('sign-worker runs as a worker thread of SignPool');
lowerThreadPriority();
serve(parentPort);
