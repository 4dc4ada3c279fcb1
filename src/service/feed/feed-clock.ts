/**
 * The feed's clock, one per runtime: it knows the feed's head and wakes the live streams when the
 * head moves. Events appended on this instance kick it (on PostgreSQL it numbers them a moment
 * later, gathering the appends of that moment into one numbering); while anyone listens it also
 * looks at the head every `pollMs`, which numbers and finds what other instances appended, so an
 * event appended anywhere reaches every stream within about two polls.
 *
 * Nothing here decides what a reader sees or from where: a stream reads the feed after its own
 * cursor up to the head it is woken with, so a missed or merged wake-up loses nothing.
 */
import type { Store } from '../../store/types.js';

export interface FeedClockOptions {
  /** How often the head is looked at while anyone listens, ms (default 250). */
  readonly pollMs?: number;
  /** How long numbering waits after a local append for the appends of the same moment, ms. */
  readonly kickDelayMs?: number;
  /**
   * The listeners are woken at most this often, ms (default 250): each wake costs every stream a
   * read of the feed, so under a steady stream of appends the wakes are gathered, not one each.
   */
  readonly minWakeMs?: number;
  /** Told of a failed look (the store unreachable, say); the next poll or kick tries again. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Numbers what has committed and answers the head: the highest position every event at or below
 * which has committed (PostgreSQL numbers events after they commit, one instance at a time; on
 * SQLite an event is numbered as it is written, and numbering numbers nothing).
 */
export async function feedHead(store: Store): Promise<number> {
  if (store.engine === 'postgres') await store.feed.sequence();
  return store.feed.head();
}

/** Called with the new head whenever it moves. */
export type HeadListener = (head: number) => void;

export const DEFAULT_FEED_POLL_MS = 250;
const DEFAULT_KICK_DELAY_MS = 20;
const DEFAULT_MIN_WAKE_MS = 250;

/** Knows the feed's head and tells its listeners when it moves; ended by {@link close}. */
export class FeedClock {
  readonly #store: Store;
  readonly #pollMs: number;
  readonly #kickDelayMs: number;
  readonly #minWakeMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #listeners = new Set<HeadListener>();
  #head = 0;
  #poll: NodeJS.Timeout | undefined;
  #kick: NodeJS.Timeout | undefined;
  #wake: NodeJS.Timeout | undefined;
  #lastWake = -Infinity;
  /** The look in progress, and the one asked for while it runs. */
  #running: Promise<number> | undefined;
  #queued: Promise<number> | undefined;
  #closed = false;

  constructor(store: Store, options: FeedClockOptions = {}) {
    this.#store = store;
    this.#pollMs = options.pollMs ?? DEFAULT_FEED_POLL_MS;
    this.#kickDelayMs = options.kickDelayMs ?? DEFAULT_KICK_DELAY_MS;
    this.#minWakeMs = options.minWakeMs ?? DEFAULT_MIN_WAKE_MS;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** The head as last seen (0 before the first look). */
  get head(): number {
    return this.#head;
  }

  /** Listeners now (the live streams of this instance). */
  get listeners(): number {
    return this.#listeners.size;
  }

  /**
   * Told after an event was appended here. On PostgreSQL the event is numbered soon (with the
   * others of the moment); on SQLite it was numbered as it was written, and only listeners need
   * to hear of it.
   */
  appended(): void {
    if (this.#closed || this.#kick !== undefined) return;
    if (this.#store.engine !== 'postgres' && this.#listeners.size === 0) return;
    this.#kick = setTimeout(() => {
      this.#kick = undefined;
      this.#lookQuietly();
    }, this.#kickDelayMs);
    this.#kick.unref();
  }

  /** Adds `listener` (and starts polling with the first); answers the call that removes it. */
  listen(listener: HeadListener): () => void {
    if (this.#closed) return () => undefined;
    this.#listeners.add(listener);
    if (this.#poll === undefined) {
      this.#poll = setInterval(() => this.#lookQuietly(), this.#pollMs);
      this.#poll.unref();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stopPolling();
    };
  }

  /**
   * Numbers what has committed, reads the head, tells the listeners when it moved, and answers
   * it; rejects when the store fails. The look answered starts after the call: one asked for
   * while another runs is made once that one ends, shared by everyone who asks meanwhile. So
   * looks never overlap, and a reader after an append here sees it numbered.
   */
  look(): Promise<number> {
    if (this.#closed) return Promise.resolve(this.#head);
    if (this.#running === undefined) {
      this.#running = this.#lookOnce().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    this.#queued ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.look();
      });
    return this.#queued;
  }

  async #lookOnce(): Promise<number> {
    const head = await feedHead(this.#store);
    if (head > this.#head && !this.#closed) {
      this.#head = head;
      this.#wakeSoon();
    }
    return head;
  }

  /** Wakes the listeners now, or once {@link FeedClockOptions.minWakeMs} has passed since the last. */
  #wakeSoon(): void {
    if (this.#wake !== undefined) return;
    const wait = this.#lastWake + this.#minWakeMs - performance.now();
    if (wait <= 0) return this.#wakeNow();
    this.#wake = setTimeout(() => {
      this.#wake = undefined;
      this.#wakeNow();
    }, wait);
    this.#wake.unref();
  }

  /** Tells every listener the head as it stands now. */
  #wakeNow(): void {
    if (this.#closed) return;
    this.#lastWake = performance.now();
    const head = this.#head;
    for (const listener of [...this.#listeners]) {
      try {
        listener(head);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  /** A look the clock makes by itself (poll, kick): a failure is reported, not thrown. */
  #lookQuietly(): void {
    this.look().catch((error: unknown) => {
      if (!this.#closed) this.#onError(error);
    });
  }

  #stopPolling(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  /** Stops the timers and forgets the listeners; waits for a look in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopPolling();
    clearTimeout(this.#kick);
    this.#kick = undefined;
    clearTimeout(this.#wake);
    this.#wake = undefined;
    this.#listeners.clear();
    await Promise.allSettled([this.#running, this.#queued]);
  }
}
