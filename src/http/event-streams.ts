/**
 * The live streams of one HTTP application: at most `maxPerSubject` open at once per token
 * subject (each holds a connection and wakes on every new event, so one client must not open
 * them without bound), each woken by the feed clock and ended when its token expires, its client
 * goes, or the application closes.
 */
import { ErxError } from '../errors.js';
import type { FeedClock } from '../service/feed-clock.js';
import type { FeedViewer, Store } from '../store/types.js';
import { EventStream } from './event-stream.js';
import type { StreamLimits, StreamSink } from './event-stream.js';

export interface StreamOptions extends StreamLimits {
  /** Streams one subject may hold open at once. */
  readonly maxPerSubject: number;
  /** The `Retry-After`, in seconds, of a stream refused for that bound. */
  readonly retryAfterS: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = Object.freeze({
  heartbeatMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  pageSize: 100,
  maxPerSubject: 5,
  retryAfterS: 5,
});

/** Longest timer Node keeps (about 24.8 days); a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A stream's reader: who it is and until when its token holds (unix ms). */
export interface StreamReader extends FeedViewer {
  readonly expiresAtMs: number;
}

/** Where a stream starts: after `after`, with the head as it stood when it was asked for. */
export interface StreamStart {
  readonly after: number;
  readonly head: number;
}

/** The open streams of an application, by subject. */
export class EventStreams {
  readonly #store: Store;
  readonly #clock: FeedClock;
  readonly #options: StreamOptions;
  readonly #now: () => number;
  readonly #open = new Map<string, Set<EventStream>>();

  constructor(store: Store, clock: FeedClock, options: StreamOptions, now: () => number) {
    this.#store = store;
    this.#clock = clock;
    this.#options = options;
    this.#now = now;
  }

  /** Streams open now. */
  get size(): number {
    let n = 0;
    for (const streams of this.#open.values()) n += streams.size;
    return n;
  }

  /** Refuses (429) a subject that holds the most streams it may already. */
  admit(sub: string): void {
    if ((this.#open.get(sub)?.size ?? 0) < this.#options.maxPerSubject) return;
    throw new ErxError(
      'too_many_requests',
      `At most ${this.#options.maxPerSubject} event streams may be open per client.`,
      { causeCode: 'too_many_streams', retryAfter: this.#options.retryAfterS },
    );
  }

  /**
   * Opens a stream to `sink` (whose headers are sent) for `reader` from `start`. Admission is
   * checked again: another stream may have opened since {@link admit}.
   */
  open(sink: StreamSink, reader: StreamReader, start: StreamStart): void {
    const { sub } = reader;
    let mine = this.#open.get(sub);
    if (mine === undefined) {
      mine = new Set();
      this.#open.set(sub, mine);
    }
    const streams = mine;
    let stopListening = (): void => undefined;
    let expiry: NodeJS.Timeout | undefined;
    const stream = new EventStream(
      sink,
      this.#store,
      { role: reader.role, sub },
      { after: start.after, head: Math.max(start.head, this.#clock.head) },
      this.#options,
      () => {
        stopListening();
        clearTimeout(expiry);
        streams.delete(stream);
        if (streams.size === 0 && this.#open.get(sub) === streams) this.#open.delete(sub);
      },
    );
    streams.add(stream);
    stopListening = this.#clock.listen((head) => stream.wake(head));
    stream.start();
    // The token's end ends the stream: a client whose access ended sees no more events.
    const watchExpiry = (): void => {
      if (stream.ended) return;
      const left = reader.expiresAtMs - this.#now();
      if (left <= 0) return stream.end();
      expiry = setTimeout(watchExpiry, Math.min(left, MAX_TIMER_MS));
      expiry.unref();
    };
    watchExpiry();
  }

  /** Ends every stream (the application is closing). */
  closeAll(): void {
    for (const streams of [...this.#open.values()]) {
      for (const stream of [...streams]) stream.end();
    }
  }
}
