/**
 * QR codes rendered off the event loop (SPEC.md §5 create, `output-format=qrcode|svg`). Encoding a
 * link of a prescription into its QR matrix alone takes ~10 ms of CPU, and a large PNG takes more;
 * on the event loop every other request (`/healthz` among them) would wait for it. Here the loop
 * only posts the job and takes the answer.
 *
 * The pool is a resource of the running service: the runtime creates it, hands it to the HTTP
 * application and closes it. Its threads run `./render-worker.ts` below the event loop's priority,
 * start at the first render and never keep the process alive while idle. Its queue is bounded: a
 * create takes its place ({@link QrRenderPool.reserve}) before the prescription is stored, so a
 * full queue refuses the call (503) before anything is written.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../background-thread.js';
import { ErxError } from '../errors.js';

/**
 * What a render thread is asked: the QR codes of `texts` (one link, or part links in order) as one
 * PNG or SVG image, each code `width` pixels wide (`./render-codes.ts`).
 */
export interface RenderJob {
  readonly id: number;
  readonly format: 'png' | 'svg';
  readonly texts: readonly string[];
  readonly width: number;
}

/** A render thread's answer to the job `id`. */
export type RenderAnswer =
  | { readonly id: number; readonly png: Uint8Array }
  | { readonly id: number; readonly svg: string }
  | { readonly id: number; readonly error: string };

/** A place in the render queue, taken before the prescription is stored; used once. */
export interface QrRenderSlot {
  /** The QR codes of `texts` as one PNG, each `width` pixels wide; frees the place when it settles. */
  png(texts: readonly string[], width: number): Promise<Buffer>;
  /** The QR codes of `texts` as one SVG, each `width` pixels wide; frees the place when it settles. */
  svg(texts: readonly string[], width: number): Promise<string>;
  /** Frees the place without rendering (the create failed); a second call does nothing. */
  release(): void;
}

export interface QrRenderPoolOptions {
  /** Render threads (default: half the cores, 1 to 4). */
  threads?: number;
  /** Renders waiting or running at most (default 16 per thread); more are refused with 503. */
  maxQueued?: number;
}

interface Pending {
  readonly resolve: (answer: RenderAnswer) => void;
  readonly reject: (error: Error) => void;
}

/** One render thread and the answers it owes. */
class RenderThread {
  readonly thread: Worker = startThread('./render-worker', import.meta.url, {
    // A render holds one image at a time; the pixels live in Buffers outside the heap.
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
  });
  readonly pending = new Map<number, Pending>();

  constructor(onExit: (gone: RenderThread) => void) {
    this.thread.on('message', (answer: RenderAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (waiting === undefined) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.thread.unref();
      waiting.resolve(answer);
    });
    const fail = (error: Error): void => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      onExit(this);
    };
    this.thread.on('error', fail);
    this.thread.on('exit', (code) => fail(new Error(`QR render thread exited with ${code}`)));
    // After the listeners: adding a 'message' listener refs the thread's port again.
    this.thread.unref();
  }

  render(job: RenderJob): Promise<RenderAnswer> {
    // Referenced while it owes an answer: a caller awaiting a render keeps the process up.
    if (this.pending.size === 0) this.thread.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      this.thread.postMessage(job);
    });
  }
}

function defaultThreads(): number {
  return Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));
}

/**
 * The render threads of a service, started at the first render: creating a pool starts nothing.
 * {@link QrRenderPool.close} ends them.
 */
export class QrRenderPool {
  readonly threads: number;
  readonly maxQueued: number;
  readonly #workers: RenderThread[] = [];
  #queued = 0;
  #nextJobId = 0;
  #closed = false;

  constructor(options: QrRenderPoolOptions = {}) {
    this.threads = Math.max(1, options.threads ?? defaultThreads());
    this.maxQueued = Math.max(1, options.maxQueued ?? 16 * this.threads);
  }

  /** Renders with a place taken and not yet freed (waiting or running). */
  get queued(): number {
    return this.#queued;
  }

  /** Threads started (they start at the first renders). */
  get started(): number {
    return this.#workers.length;
  }

  /**
   * Takes a place in the queue for one render. Throws `service_unavailable` (503, Retry-After 1)
   * when every place is taken, and once the pool is closed.
   */
  reserve(): QrRenderSlot {
    if (this.#closed || this.#queued >= this.maxQueued) {
      throw new ErxError('service_unavailable', 'Too many QR codes are being rendered; retry.', {
        retryAfter: 1,
        detail: { queued: this.#queued, maxQueued: this.maxQueued, closed: this.#closed },
      });
    }
    this.#queued += 1;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      this.#queued -= 1;
    };
    const render = async (format: RenderJob['format'], texts: readonly string[], width: number) => {
      if (!held) throw new Error('a QR render slot is used once');
      try {
        return await this.#render(format, texts, width);
      } finally {
        release();
      }
    };
    return {
      png: async (texts, width) => {
        const answer = await render('png', texts, width);
        if (!('png' in answer)) throw new Error('the render thread answered no PNG');
        return Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength);
      },
      svg: async (texts, width) => {
        const answer = await render('svg', texts, width);
        if (!('svg' in answer)) throw new Error('the render thread answered no SVG');
        return answer.svg;
      },
      release,
    };
  }

  /** Stops every thread for good (pending renders fail, later reservations are refused). */
  async close(): Promise<void> {
    this.#closed = true;
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((w) => w.thread.terminate()));
  }

  async #render(
    format: RenderJob['format'],
    texts: readonly string[],
    width: number,
  ): Promise<RenderAnswer> {
    if (this.#closed) throw new Error('the QR render pool is closed');
    const answer = await this.#leastBusy().render({ id: this.#nextJobId++, format, texts, width });
    if ('error' in answer) throw new Error(`QR rendering failed: ${answer.error}`);
    return answer;
  }

  #leastBusy(): RenderThread {
    if (this.#workers.length < this.threads) {
      const worker = new RenderThread((gone) => {
        const at = this.#workers.indexOf(gone);
        if (at >= 0) this.#workers.splice(at, 1);
      });
      this.#workers.push(worker);
      return worker;
    }
    return this.#workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }
}
