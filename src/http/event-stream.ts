/**
 * One live stream of the event feed as Server-Sent Events (WHATWG HTML §9.2): after its cursor it
 * sends every event its viewer may see, each message's `id` the event's cursor and its `data` the
 * feed item, then waits for the feed clock to say the head moved. A comment line every
 * `heartbeatMs` keeps proxies from closing an idle connection.
 *
 * A client that reads slower than events come is not buffered for without bound: between pages
 * the stream waits for the socket to drain, and a stream whose unsent bytes pass
 * `maxBufferedBytes` anyway is dropped (its client resumes with `Last-Event-ID`). A failure to
 * read the feed ends the stream too: the client resumes where it stopped.
 */
import { feedItem, readFeedRows } from '../service/index.js';
import type { FeedRowsPage } from '../service/index.js';
import type { FeedRow, FeedStore, FeedViewer } from '../store/types.js';

/** What a stream writes to: the response (a Node writable), narrowed for tests. */
export interface StreamSink {
  write(chunk: string): boolean;
  end(): void;
  destroy(): void;
  readonly writableLength: number;
  readonly writableNeedDrain: boolean;
  readonly destroyed: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

export interface StreamLimits {
  /** A comment line this often, ms (proxies close connections idle for a minute or so). */
  readonly heartbeatMs: number;
  /** Unsent bytes at which the stream is dropped. */
  readonly maxBufferedBytes: number;
  /** Events read from the store at once. */
  readonly pageSize: number;
}

/**
 * Where a stream reads the feed: the store itself ({@link storeFeed}), or reads shared by the
 * streams of one application (`event-streams.ts`), which may also make each row's message once
 * for them all.
 */
export interface StreamFeed {
  /** What `viewer` may see in (`after`, `upTo`], at most `limit` rows. */
  readPage(viewer: FeedViewer, after: number, upTo: number, limit: number): Promise<FeedRowsPage>;
  /** The SSE message of `row` (undefined: left out); without it the stream makes its own. */
  readonly message?: (row: FeedRow) => string | undefined;
}

/** The feed of a stream that reads the store on its own. */
export function storeFeed(feed: Pick<FeedStore, 'read'>): StreamFeed {
  return {
    readPage: (viewer, after, upTo, limit) => readFeedRows(feed, viewer, after, upTo, limit),
  };
}

/** The SSE message of one feed row: its cursor as `id`, the feed item as `data`. */
export function feedMessage(row: FeedRow): string | undefined {
  const item = feedItem(row);
  return item === undefined ? undefined : `id: ${item.cursor}\ndata: ${JSON.stringify(item)}\n\n`;
}

/** How long a client waits before reconnecting after the stream ended, ms (the `retry` field). */
const RECONNECT_MS = 1_000;

/** A stream of events to one client; started by {@link start}, ended by {@link end}. */
export class EventStream {
  readonly #sink: StreamSink;
  readonly #feed: StreamFeed;
  readonly #viewer: FeedViewer;
  readonly #limits: StreamLimits;
  /** The last position sent or passed over; the client's `Last-Event-ID` is at or before it. */
  #cursor: number;
  /** The highest head heard of. */
  #upTo: number;
  #pumping = false;
  #again = false;
  #heartbeat: NodeJS.Timeout | undefined;
  #ended = false;
  readonly #onEnd: () => void;

  constructor(
    sink: StreamSink,
    feed: StreamFeed,
    viewer: FeedViewer,
    from: { after: number; head: number },
    limits: StreamLimits,
    onEnd: () => void,
  ) {
    this.#sink = sink;
    this.#feed = feed;
    this.#viewer = viewer;
    this.#cursor = from.after;
    this.#upTo = Math.max(from.after, from.head);
    this.#limits = limits;
    this.#onEnd = onEnd;
  }

  /** Sends the reconnection delay and the events after the cursor, then heartbeats. */
  start(): void {
    // A client gone before the stream started has had its 'close' already.
    if (this.#sink.destroyed) return this.end();
    this.#sink.once('close', () => this.end());
    this.#send(`retry: ${RECONNECT_MS}\n\n`);
    this.#heartbeat = setInterval(() => this.#send(': heartbeat\n\n'), this.#limits.heartbeatMs);
    this.#heartbeat.unref();
    void this.#pump();
  }

  /** Told that the feed's head is now `head`: sends what the viewer may see up to it. */
  wake(head: number): void {
    if (head > this.#upTo) this.#upTo = head;
    void this.#pump();
  }

  /** Whether the stream has ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Ends the stream (the response is ended; the client may resume). Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#heartbeat);
    if (!this.#sink.destroyed) this.#sink.end();
    this.#onEnd();
  }

  /** Writes `text`; past the bound of unsent bytes the client is too slow and is dropped. */
  #send(text: string): void {
    if (this.#ended) return;
    this.#sink.write(text);
    if (this.#sink.writableLength > this.#limits.maxBufferedBytes) {
      this.#sink.destroy();
      this.end();
    }
  }

  /** Sends pages until the cursor reaches the highest head heard of; one pump at a time. */
  async #pump(): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        while (!this.#ended && this.#cursor < this.#upTo) {
          await this.#sendPage();
          if (this.#sink.writableNeedDrain) await this.#drained();
        }
      } while (this.#again && !this.#ended);
    } catch {
      // The store failed: the client resumes after the last event it got.
      this.end();
    } finally {
      this.#pumping = false;
    }
  }

  async #sendPage(): Promise<void> {
    const upTo = this.#upTo;
    const { pageSize } = this.#limits;
    const { rows, through } = await this.#feed.readPage(this.#viewer, this.#cursor, upTo, pageSize);
    const message = this.#feed.message ?? feedMessage;
    // One write per page: a socket write per event would cost a system call each.
    let page = '';
    for (const row of rows) page += message(row) ?? '';
    if (page !== '') this.#send(page);
    this.#cursor = through;
  }

  /** Resolves once the socket has drained or closed. */
  #drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.#sink.off('drain', done);
        this.#sink.off('close', done);
        resolve();
      };
      this.#sink.once('drain', done);
      this.#sink.once('close', done);
    });
  }
}
