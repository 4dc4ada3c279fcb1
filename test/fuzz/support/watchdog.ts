/**
 * Hang detection for a sequential fuzz loop without a timer per request (a timer per request
 * costs more than many of the requests): one interval checks how long the request in flight has
 * taken and fails its wait past the limit. Each wait races a promise of its own: racing one
 * long-lived promise would pile a reaction onto it per request, and never free them.
 */
export class Watchdog {
  readonly #timer: NodeJS.Timeout;
  #current: { started: number; fail: (error: Error) => void } | undefined;

  constructor(limitMs: number) {
    this.#timer = setInterval(() => {
      const current = this.#current;
      if (current && performance.now() - current.started > limitMs) {
        current.fail(new Error(`no answer within ${limitMs} ms`));
      }
    }, 250);
    this.#timer.unref();
  }

  /** Waits for `pending`, or fails once it has been in flight past the limit. */
  async watch<T>(pending: Promise<T>): Promise<T> {
    const tripped = new Promise<never>((_, reject) => {
      this.#current = { started: performance.now(), fail: reject };
    });
    try {
      return await Promise.race([pending, tripped]);
    } finally {
      this.#current = undefined;
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
