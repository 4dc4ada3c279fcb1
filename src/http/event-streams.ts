/**
 * The live streams of one HTTP application: at most `maxPerSubject` open at once per token
 * subject (each holds a connection and reads the feed on every wake, so one client must not open
 * them without bound), each woken by the feed clock and ended when its token expires or is found
 * inactive (checked again every `recheckMs`, as a call would be: a removed client's streams end),
 * its client goes, or the application closes.
 *
 * The streams of one subject read the feed together: woken in the same turn, streams of the same
 * viewer at the same cursor (a pharmacy's counters, all caught up) ask for the same page, which is
 * read once and made into messages once for them all. Subjects are woken one per turn of the event
 * loop, so the reads a moving head causes (on SQLite, synchronous) are spread between the calls
 * being served instead of holding them all up at once.
 */
import { ErxError } from '../errors.js';
import type { FeedClock } from '../service/index.js';
import { readFeedRows } from '../service/index.js';
import type { FeedRowsPage } from '../service/index.js';
import { seesFeedRow } from '../store/feed-rows.js';
import type { FeedRow, FeedStore, FeedViewer, FeedWindowRow } from '../store/types.js';
import { EventStream, feedMessage } from './event-stream.js';
import type { StreamFeed, StreamLimits, StreamSink } from './event-stream.js';

export interface StreamOptions extends StreamLimits {
  /** Streams one subject may hold open at once. */
  readonly maxPerSubject: number;
  /** The `Retry-After`, in seconds, of a stream refused for that bound. */
  readonly retryAfterS: number;
  /** How often a stream's token is checked again, ms. */
  readonly recheckMs: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = Object.freeze({
  heartbeatMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  pageSize: 100,
  maxPerSubject: 5,
  retryAfterS: 5,
  // The token checks' own cache holds an answer this long (SPEC.md §5).
  recheckMs: 60_000,
});

/** Longest timer Node keeps (about 24.8 days); a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A stream's reader: who it is, until when its token holds (unix ms), whether it still does. */
export interface StreamReader extends FeedViewer {
  readonly expiresAtMs: number;
  /** Whether the token is still active; false or a failure ends the stream. */
  readonly stillActive: () => Promise<boolean>;
}

/** Where a stream starts: after `after`, with the head as it stood when it was asked for. */
export interface StreamStart {
  readonly after: number;
  readonly head: number;
}

/**
 * The feed as the streams read it. A stream that is caught up, asking for no more than a page
 * after its cursor, is answered from a window: every event in its range read once with what
 * decides who sees it (`FeedStore.readWindow`), filtered for each viewer by the store's own rule
 * (`seesFeedRow`). A wake-up then costs one read whatever the number of subjects woken, instead
 * of one read, and one check of every new event along its chain, per subject. A window is kept
 * for the streams of one wake-up round ({@link keepWindows}, {@link forgetWindows}); a stream
 * further behind reads its own pages (`FeedStore.read`), shared only with the same read under way.
 * Either answer is what a read of the stream's own would give: positions up to a head never
 * change. A row's message is made once for every stream it goes to.
 */
class SharedFeedReads implements StreamFeed {
  readonly #store: FeedRows;
  readonly #reading = new Map<string, Promise<FeedRowsPage>>();
  readonly #windows = new Map<string, Promise<FeedWindowRow[]>>();
  #keepWindows = false;
  readonly #messages = new WeakMap<FeedRow, string | undefined>();

  constructor(store: FeedRows) {
    this.#store = store;
  }

  readPage(viewer: FeedViewer, after: number, upTo: number, limit: number): Promise<FeedRowsPage> {
    if (upTo > after && upTo - after <= limit) return this.#fromWindow(viewer, after, upTo, limit);
    const key = `${viewer.role} ${after} ${upTo} ${limit} ${viewer.sub}`;
    return this.#shared(this.#reading, key, true, () =>
      readFeedRows(this.#store, viewer, after, upTo, limit),
    );
  }

  /** Keeps the windows read from now on for the streams woken after (a wake-up round begins). */
  keepWindows(): void {
    this.#keepWindows = true;
  }

  /** Drops the windows kept (the round has ended: later reads see later cancels). */
  forgetWindows(): void {
    this.#keepWindows = false;
    this.#windows.clear();
  }

  async #fromWindow(
    viewer: FeedViewer,
    after: number,
    upTo: number,
    limit: number,
  ): Promise<FeedRowsPage> {
    // The whole range fits a page: the window holds every event in it, so the viewer has seen
    // everything through `upTo` whatever it is shown.
    const key = `${after} ${upTo}`;
    const rows = await this.#shared(this.#windows, key, !this.#keepWindows, () =>
      this.#store.readWindow(after, upTo, limit),
    );
    return { rows: rows.filter((row) => seesFeedRow(viewer, row)), through: upTo };
  }

  /** The read under `key` in `reads`, started by `read` if there is none (dropped once done). */
  #shared<T>(
    reads: Map<string, Promise<T>>,
    key: string,
    dropWhenDone: boolean,
    read: () => Promise<T>,
  ): Promise<T> {
    const under = reads.get(key);
    if (under !== undefined) return under;
    const started = read();
    reads.set(key, started);
    const drop = (): void => void (reads.get(key) === started && reads.delete(key));
    // A failed read is never kept: the next stream tries again.
    started.then(() => dropWhenDone && drop(), drop);
    return started;
  }

  readonly message = (row: FeedRow): string | undefined => {
    if (this.#messages.has(row)) return this.#messages.get(row);
    const message = feedMessage(row);
    this.#messages.set(row, message);
    return message;
  };
}

/** The feed's rows as the streams and the feed's page read them: the store's two feed reads. */
export type FeedRows = Pick<FeedStore, 'read' | 'readWindow'>;

/** The open streams of an application, by subject. */
export class EventStreams {
  readonly #feed: SharedFeedReads;
  readonly #clock: FeedClock;
  readonly #options: StreamOptions;
  readonly #now: () => number;
  readonly #open = new Map<string, Set<EventStream>>();
  /** Subjects whose streams are to be woken, with the newest head heard for them. */
  readonly #waking = new Map<string, number>();
  #wakingScheduled = false;

  constructor(store: FeedRows, clock: FeedClock, options: StreamOptions, now: () => number) {
    this.#feed = new SharedFeedReads(store);
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
   * Opens a stream to `sink` (whose headers are sent) for `reader` from `start`; the caller has
   * just {@link admit}ted the subject, with no wait in between.
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
    const timers: { expiry?: NodeJS.Timeout; recheck?: NodeJS.Timeout } = {};
    const stream = new EventStream(
      sink,
      this.#feed,
      { role: reader.role, sub },
      { after: start.after, head: Math.max(start.head, this.#clock.head) },
      this.#options,
      () => {
        stopListening();
        clearTimeout(timers.expiry);
        clearInterval(timers.recheck);
        streams.delete(stream);
        if (streams.size === 0 && this.#open.get(sub) === streams) this.#open.delete(sub);
      },
    );
    streams.add(stream);
    stopListening = this.#clock.listen((head) => this.#wakeSoon(sub, head));
    stream.start();
    // The token's end ends the stream: a client whose access ended sees no more events.
    const watchExpiry = (): void => {
      if (stream.ended) return;
      const left = reader.expiresAtMs - this.#now();
      if (left <= 0) return stream.end();
      timers.expiry = setTimeout(watchExpiry, Math.min(left, MAX_TIMER_MS));
      timers.expiry.unref();
    };
    watchExpiry();
    if (stream.ended) return;
    timers.recheck = setInterval(() => {
      reader.stillActive().then(
        (active) => active || stream.end(),
        () => stream.end(),
      );
    }, this.#options.recheckMs);
    timers.recheck.unref();
  }

  /** Wakes the streams of `sub` on a turn of their own, with the others of the same wake-up. */
  #wakeSoon(sub: string, head: number): void {
    this.#waking.set(sub, Math.max(head, this.#waking.get(sub) ?? 0));
    if (this.#wakingScheduled) return;
    this.#wakingScheduled = true;
    this.#feed.keepWindows();
    setImmediate(() => this.#wakeNext());
  }

  /** Wakes one subject's streams together, then yields to I/O before the next subject. */
  #wakeNext(): void {
    const next = this.#waking.entries().next();
    if (next.done === true) {
      this.#wakingScheduled = false;
      this.#feed.forgetWindows();
      return;
    }
    const [sub, head] = next.value;
    this.#waking.delete(sub);
    for (const stream of [...(this.#open.get(sub) ?? [])]) stream.wake(head);
    setImmediate(() => this.#wakeNext());
  }

  /** Ends every stream (the application is closing). */
  closeAll(): void {
    for (const streams of [...this.#open.values()]) {
      for (const stream of [...streams]) stream.end();
    }
  }
}
