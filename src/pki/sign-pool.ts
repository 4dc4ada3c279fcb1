/**
 * ES384 signatures off the event loop, on one worker thread per core, with node:crypto's one-shot
 * `sign`. WebCrypto also signs off the loop, but on libuv's pool (four threads, shared with file
 * I/O) and with more work per call on the loop itself; on a small machine the pool costs less CPU
 * per signature and so gives more of them (see docs/performance.md).
 *
 * The pool is a resource of the running service: the runtime creates it, hands it to the signer
 * and the load shedding, and closes it. The threads run `./sign-worker.ts`. A key, with the start
 * every input signed with it shares (a JWS header with its certificates, 2 KB), crosses to a
 * thread once and is kept there by number.
 */
import { availableParallelism } from 'node:os';
import { KeyObject } from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { BACKGROUND_NICENESS, startThread } from '../background-thread.js';

/** How much lower than the event loop's the signing threads' priority is (Linux nice steps). */
export const SIGNING_THREAD_NICENESS = BACKGROUND_NICENESS;

/** How busy signing is: signatures waiting (or being made), and the threads making them. */
export interface SigningLoad {
  readonly waiting: number;
  readonly threads: number;
}

/** What a signing thread is asked: sign its context's prefix followed by `rest`. */
export interface SignJob {
  readonly id: number;
  readonly contextId: number;
  /** Sent with the first job of the context that a thread gets. */
  readonly context?: { readonly key: KeyObject; readonly prefix: string };
  readonly rest: string;
}

/** A signing thread's answer to the job `id`. */
export type SignAnswer =
  | { readonly id: number; readonly signature: string }
  | { readonly id: number; readonly error: string };

interface Pending {
  readonly resolve: (signature: string) => void;
  readonly reject: (error: Error) => void;
}

class SignWorker {
  readonly thread: Worker = startThread('./sign-worker', import.meta.url, {
    // A signing thread holds a few keys and one job at a time: a small heap keeps its RSS small.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
  });
  readonly pending = new Map<number, Pending>();
  readonly contexts = new Set<number>();

  constructor(onExit: (worker: SignWorker) => void) {
    this.thread.on('message', (answer: SignAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (waiting === undefined) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.thread.unref();
      if ('signature' in answer) waiting.resolve(answer.signature);
      else waiting.reject(new Error(`ES384 signing failed: ${answer.error}`));
    });
    const fail = (error: Error): void => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      onExit(this);
    };
    this.thread.on('error', fail);
    this.thread.on('exit', (code) => fail(new Error(`signing worker exited with ${code}`)));
    // After the listeners: adding a 'message' listener refs the thread's port again.
    this.thread.unref();
  }

  sign(job: SignJob, pending: Pending): void {
    // Referenced while it owes an answer: a caller awaiting a signature keeps the process up.
    if (this.pending.size === 0) this.thread.ref();
    this.pending.set(job.id, pending);
    this.thread.postMessage(job);
  }
}

/**
 * A pool of signing threads, started on first use (or by {@link SignPool.start}): creating one
 * starts nothing. Idle threads never keep the process alive; {@link SignPool.close} ends them.
 */
export class SignPool {
  readonly size: number;
  readonly #workers: SignWorker[] = [];
  readonly #contextIds = new WeakMap<KeyObject, Map<string, number>>();
  readonly #keyObjects = new WeakMap<webcrypto.CryptoKey, KeyObject>();
  #nextContextId = 0;
  #nextJobId = 0;
  #closed = false;

  constructor(size: number = availableParallelism()) {
    this.size = Math.max(1, size);
  }

  /**
   * The ES384 signature (IEEE P1363, base64url) of the UTF-8 bytes of `prefix + rest`. `prefix`
   * is the start every input of this key shares (it is kept per key and thread, so it must be one
   * of a few values, like a JWS header); `rest` is what changes from call to call.
   */
  sign(privateKey: webcrypto.CryptoKey | KeyObject, prefix: string, rest: string): Promise<string> {
    if (this.#closed) return Promise.reject(new Error('the signing pool is closed'));
    const key = this.#keyObject(privateKey);
    let byPrefix = this.#contextIds.get(key);
    if (byPrefix === undefined) {
      byPrefix = new Map();
      this.#contextIds.set(key, byPrefix);
    }
    let contextId = byPrefix.get(prefix);
    if (contextId === undefined) {
      contextId = this.#nextContextId++;
      byPrefix.set(prefix, contextId);
    }
    const worker = this.#leastBusy();
    const id = this.#nextJobId++;
    const job: SignJob = worker.contexts.has(contextId)
      ? { id, contextId, rest }
      : { id, contextId, context: { key, prefix }, rest };
    worker.contexts.add(contextId);
    return new Promise((resolve, reject) => worker.sign(job, { resolve, reject }));
  }

  /** Signatures asked for and not yet answered, on all threads. */
  get waiting(): number {
    let waiting = 0;
    for (const worker of this.#workers) waiting += worker.pending.size;
    return waiting;
  }

  /** The signing load now (for the load shedding: SPEC.md §9, docs/decisions.md). */
  load(): SigningLoad {
    return { waiting: this.waiting, threads: this.size };
  }

  /** Threads started (they start on first use, or all at once with {@link start}). */
  get started(): number {
    return this.#workers.length;
  }

  /**
   * Starts every thread now, so the first signatures do not wait for threads to start (a service
   * calls this when it starts). Idle threads still never keep the process alive.
   */
  start(): void {
    if (this.#closed) return;
    while (this.#workers.length < this.size) this.#addWorker();
  }

  /** Stops every thread for good (pending and later signatures fail). */
  async close(): Promise<void> {
    this.#closed = true;
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((w) => w.thread.terminate()));
  }

  #keyObject(key: webcrypto.CryptoKey | KeyObject): KeyObject {
    if (key instanceof KeyObject) return key;
    let object = this.#keyObjects.get(key);
    if (object === undefined) {
      object = KeyObject.from(key);
      this.#keyObjects.set(key, object);
    }
    return object;
  }

  #addWorker(): SignWorker {
    const worker = new SignWorker((gone) => {
      const at = this.#workers.indexOf(gone);
      if (at >= 0) this.#workers.splice(at, 1);
    });
    this.#workers.push(worker);
    return worker;
  }

  #leastBusy(): SignWorker {
    if (this.#workers.length < this.size) return this.#addWorker();
    return this.#workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }
}
