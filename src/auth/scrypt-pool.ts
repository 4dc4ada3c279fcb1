/**
 * Client secrets are hashed on threads of their own (default one), never on libuv's pool: Node's
 * asynchronous `scrypt` (also when called inside a worker) runs there, beside WebCrypto's ES384
 * verification of ledger events, so a flood of wrong secrets made every verify of a chain not seen
 * before wait seconds behind it. Here each thread runs `scryptSync` (`./scrypt-worker.ts`), one
 * job at a time, and the queue is the pool's:
 *
 * - bounded: past {@link DEFAULT_MAX_WAITING} jobs waiting or running, a new one is refused at once
 *   with 503 and `Retry-After`, without hashing (each waits about a hash per place in the queue);
 * - fair: jobs wait in lanes (the caller's address) served in turn, a lane that had nothing waiting
 *   first, so one address's backlog does not delay another address's request by more than the
 *   hash running when it arrives.
 *
 * The pool is a resource of the running service: the runtime creates it, hands it to the token
 * service and closes it. Threads start on first use; idle ones never keep the process alive.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../background-thread.js';
import { ErxError } from '../errors.js';
import type { ScryptJob, ScryptRunner } from './secret-hash.js';

/** Jobs waiting or running at once before new ones are refused: about a second of hashing. */
export const DEFAULT_MAX_WAITING = 16;

/** What a thread is asked. */
export interface ScryptRequest {
  readonly id: number;
  readonly job: ScryptJob;
}

/** A thread's answer to the request `id`. */
export type ScryptAnswer =
  | { readonly id: number; readonly key: Uint8Array }
  | { readonly id: number; readonly error: string };

interface Queued {
  readonly job: ScryptJob;
  readonly resolve: (key: Buffer) => void;
  readonly reject: (error: Error) => void;
}

function atCapacity(): ErxError {
  return new ErxError('service_unavailable', 'erx is at capacity; retry shortly.', {
    retryAfter: 1,
    detail: 'client secret hashing queue full',
  });
}

class ScryptThread {
  readonly thread: Worker = startThread('./scrypt-worker', import.meta.url, {
    // scrypt's 32 MiB live outside the JavaScript heap; the thread itself needs little.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
  });
  /** The job it runs now, if any. */
  current: (Queued & { readonly id: number }) | undefined;

  constructor(onIdle: (thread: ScryptThread) => void, onExit: (thread: ScryptThread) => void) {
    this.thread.on('message', (answer: ScryptAnswer) => {
      const running = this.current;
      if (running === undefined || running.id !== answer.id) return;
      this.current = undefined;
      this.thread.unref();
      if ('key' in answer) running.resolve(Buffer.from(answer.key));
      else running.reject(new Error(`scrypt failed: ${answer.error}`));
      onIdle(this);
    });
    const fail = (error: Error): void => {
      const running = this.current;
      this.current = undefined;
      running?.reject(error);
      onExit(this);
    };
    this.thread.on('error', fail);
    this.thread.on('exit', (code) => fail(new Error(`scrypt worker exited with ${code}`)));
    // After the listeners: adding a 'message' listener refs the thread's port again.
    this.thread.unref();
  }

  run(id: number, queued: Queued): void {
    // Referenced while it owes an answer: a caller awaiting a hash keeps the process up.
    this.thread.ref();
    this.current = { ...queued, id };
    this.thread.postMessage({ id, job: queued.job } satisfies ScryptRequest);
  }
}

export interface ScryptPoolOptions {
  /** Threads that hash (default 1: on a small machine the event loop and libuv need the rest). */
  threads?: number;
  /** Jobs waiting or running at once before new ones are refused (default {@link DEFAULT_MAX_WAITING}). */
  maxWaiting?: number;
}

/** A bounded, fair pool of scrypt threads; see the module comment. */
export class ScryptPool implements ScryptRunner {
  readonly size: number;
  readonly maxWaiting: number;
  readonly #threads: ScryptThread[] = [];
  /** Queued jobs by lane; a Map keeps insertion order, the first lane is served next. */
  readonly #lanes = new Map<string, Queued[]>();
  #queued = 0;
  #nextId = 0;
  #closed = false;

  constructor(options: ScryptPoolOptions = {}) {
    this.size = Math.max(1, options.threads ?? 1);
    this.maxWaiting = Math.max(1, options.maxWaiting ?? DEFAULT_MAX_WAITING);
  }

  /** Jobs waiting or running. */
  get waiting(): number {
    return this.#queued + this.#threads.filter((t) => t.current !== undefined).length;
  }

  /** Threads started (they start on first use). */
  get started(): number {
    return this.#threads.length;
  }

  /**
   * The scrypt key of `job`, hashed in the turn of `lane` (the caller's address); rejects with
   * `service_unavailable` at once when {@link maxWaiting} jobs are waiting or running.
   */
  derive(job: ScryptJob, lane = ''): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new Error('the scrypt pool is closed'));
    if (this.waiting >= this.maxWaiting) return Promise.reject(atCapacity());
    return new Promise<Buffer>((resolve, reject) => {
      const queued = { job, resolve, reject };
      const queue = this.#lanes.get(lane);
      if (queue !== undefined) {
        queue.push(queued);
      } else {
        // A lane with nothing waiting goes first: a caller with one request waits for the job
        // running now only, however long another lane's backlog. (At most maxWaiting lanes.)
        const lanes = [...this.#lanes];
        this.#lanes.clear();
        this.#lanes.set(lane, [queued]);
        for (const [name, waiting] of lanes) this.#lanes.set(name, waiting);
      }
      this.#queued++;
      this.#dispatch();
    });
  }

  /** Stops every thread for good (queued, running and later jobs fail). */
  async close(): Promise<void> {
    this.#closed = true;
    const error = new Error('the scrypt pool is closed');
    for (const queue of this.#lanes.values()) for (const queued of queue) queued.reject(error);
    this.#lanes.clear();
    this.#queued = 0;
    const threads = this.#threads.splice(0);
    await Promise.all(threads.map((t) => t.thread.terminate()));
  }

  /** Hands the next jobs, lane by lane in turn, to idle threads (starting threads as needed). */
  #dispatch(): void {
    while (this.#queued > 0) {
      const thread = this.#idleThread();
      if (thread === undefined) return;
      const [lane, queue] = this.#lanes.entries().next().value as [string, Queued[]];
      const queued = queue.shift()!;
      this.#queued--;
      // The lane goes to the back of the turn, or away when it has nothing left.
      this.#lanes.delete(lane);
      if (queue.length > 0) this.#lanes.set(lane, queue);
      thread.run(this.#nextId++, queued);
    }
  }

  #idleThread(): ScryptThread | undefined {
    const idle = this.#threads.find((t) => t.current === undefined);
    if (idle !== undefined || this.#threads.length >= this.size || this.#closed) return idle;
    const thread = new ScryptThread(
      () => this.#dispatch(),
      (gone) => {
        const at = this.#threads.indexOf(gone);
        if (at >= 0) this.#threads.splice(at, 1);
        if (!this.#closed) this.#dispatch();
      },
    );
    this.#threads.push(thread);
    return thread;
  }
}
