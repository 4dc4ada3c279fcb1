/**
 * `erx events`: the event feed read page by page (`GET /ePrescription/events`) up to where it
 * stands, and with `--follow` kept up with over the live stream (`GET /ePrescription/events/stream`,
 * Server-Sent Events), resumed with `Last-Event-ID` after a lost connection, after a back-off.
 * Against a service without the stream (404), the feed is polled instead. Cursors are opaque: the
 * reader only hands back what the service answered.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { FEED_PAGE } from '../api/feed.js';
import type { Config } from '../config/index.js';
import { ErxError, isErxError } from '../errors.js';
import { answerError, callService, retryAfterSeconds } from './service-client.js';
import { SseParser } from '../../client/sse-parser.js';
import { CliUsageError } from './usage-error.js';

/** One event of the feed as the service answers it. */
export interface FeedItem {
  readonly cursor: string;
  readonly prescription_id: string;
  readonly event: unknown;
}

/** A page of the feed. */
interface FeedPage {
  readonly events: FeedItem[];
  readonly next: string;
}

/** How a follow waits: tests shorten the times. */
export interface FollowTiming {
  /** No byte (not even a heartbeat, sent every 15 s) for this long: the connection is dead. */
  readonly idleMs: number;
  /** Between two polls of the feed when there is no stream. */
  readonly pollMs: number;
  /** Before the 1st, 2nd, … reconnection in a row, each scaled by a jitter of 50–100 %. */
  readonly reconnectMs: readonly number[];
}

export const FOLLOW_TIMING: FollowTiming = Object.freeze({
  idleMs: 45_000,
  pollMs: 1_000,
  reconnectMs: Object.freeze([250, 500, 1_000, 2_000, 5_000]),
});

/** Where a reader stands, and what it is told. */
export interface FeedReader {
  readonly config: Config;
  /** Ends the run (SIGINT): the reader stops between events and answers where it stands. */
  readonly signal: AbortSignal;
  /** Told of each event, in feed order. */
  onEvent(item: FeedItem): void;
  /** Told when the connection to the stream was lost, and how long until the next attempt. */
  onReconnect?(waitMs: number, why: string): void;
  /** Where to resume from: a cursor the service answered (undefined: the feed's start). */
  cursor: string | undefined;
  /** Events told so far. */
  count: number;
  /** Stop after this many events (undefined: no bound). */
  readonly limit: number | undefined;
}

/** Whether the reader has told all it was asked for, or was stopped. */
function finished(reader: FeedReader): boolean {
  return reader.signal.aborted || (reader.limit !== undefined && reader.count >= reader.limit);
}

/** Sleeps `ms`, or less when the reader is stopped. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}

/** Tells the reader of `item` and moves its cursor past it. */
function tell(reader: FeedReader, item: FeedItem, cursor: string): void {
  reader.cursor = cursor;
  reader.count += 1;
  reader.onEvent(item);
}

/**
 * Reads the feed after the reader's cursor up to where it stands now (a page shorter than asked
 * for), or until the reader's limit; the reader's cursor is then the feed's `next`.
 */
export async function readToHead(reader: FeedReader): Promise<void> {
  while (!finished(reader)) {
    const left = reader.limit === undefined ? FEED_PAGE.default : reader.limit - reader.count;
    const limit = Math.min(left, FEED_PAGE.max);
    const query = new URLSearchParams({ limit: String(limit) });
    if (reader.cursor !== undefined) query.set('after', reader.cursor);
    const answer = await callService(reader.config, 'GET', `/ePrescription/events?${query}`, {
      auth: true,
    });
    const page = JSON.parse(answer.body.toString('utf8')) as FeedPage;
    // A page is told whole: a limit asks for no more than it has left.
    for (const item of page.events) tell(reader, item, item.cursor);
    reader.cursor = page.next;
    if (page.events.length < limit) return;
  }
}

/** How one connection to the stream ended. */
type StreamEnd =
  | { kind: 'done' }
  | { kind: 'missing' }
  | { kind: 'lost'; why: string; heard: boolean }
  | { kind: 'wait'; ms: number; why: string };

/**
 * Follows the feed from the reader's cursor (after {@link readToHead}: the stream resumes where the
 * pages ended) until the reader is stopped or has its limit: over the stream while there is one,
 * reconnecting with a back-off (or after `Retry-After`) with `Last-Event-ID`; by polling the feed
 * when the service has no stream.
 */
export async function follow(reader: FeedReader, timing = FOLLOW_TIMING): Promise<void> {
  if (reader.config.token === undefined) {
    throw new CliUsageError('set ERX_TOKEN to a token (erx token --client-id … --client-secret …)');
  }
  let failures = 0;
  while (!finished(reader)) {
    const end = await streamOnce(reader, timing);
    if (end.kind === 'done') return;
    if (end.kind === 'missing') return poll(reader, timing);
    if (reader.signal.aborted) return;
    if (end.kind === 'lost' && end.heard) failures = 0;
    let ms: number;
    if (end.kind === 'wait') {
      ms = end.ms;
    } else {
      const steps = timing.reconnectMs;
      const base = steps[Math.min(failures, steps.length - 1)] ?? 0;
      ms = Math.round(base * (0.5 + Math.random() / 2));
      failures += 1;
    }
    reader.onReconnect?.(ms, end.why);
    await pause(ms, reader.signal);
  }
}

/** Polls the feed until the reader is stopped or has its limit. */
async function poll(reader: FeedReader, timing: FollowTiming): Promise<void> {
  while (!finished(reader)) {
    try {
      await readToHead(reader);
    } catch (error) {
      // Past the retries of one call the service is still away: keep following, as the stream does.
      if (!isErxError(error) || error.code !== 'service_unavailable') throw error;
      reader.onReconnect?.(timing.pollMs, error.message);
    }
    if (!finished(reader)) await pause(timing.pollMs, reader.signal);
  }
}

/** The headers of a stream request resuming after the reader's cursor. */
function streamHeaders(reader: FeedReader): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    authorization: `Bearer acs:${reader.config.token ?? ''}`,
  };
  if (reader.cursor !== undefined) headers['last-event-id'] = reader.cursor;
  return headers;
}

/** One connection to the stream: tells the reader each event until it ends. */
async function streamOnce(reader: FeedReader, timing: FollowTiming): Promise<StreamEnd> {
  const connection = new AbortController();
  const stop = (): void => connection.abort();
  reader.signal.addEventListener('abort', stop);
  const idle = setTimeout(stop, timing.idleMs);
  let heard = false;
  try {
    const response = await fetch(
      new URL('/ePrescription/events/stream', reader.config.serviceUrl),
      {
        headers: streamHeaders(reader),
        signal: connection.signal,
      },
    );
    const { status } = response;
    if (status !== 200 || response.body === null) {
      const body = Buffer.from(await response.arrayBuffer());
      if (status === 404) return { kind: 'missing' };
      if (status === 429 || status === 503) {
        const seconds = retryAfterSeconds(response.headers.get('retry-after'), Date.now());
        return { kind: 'wait', ms: seconds * 1000, why: `HTTP ${status}` };
      }
      // A 4xx will not change by itself (the retry contract): a new token or cursor is needed.
      if (status < 500) throw answerError(status, body);
      return { kind: 'lost', why: `HTTP ${status}`, heard };
    }
    const parser = new SseParser();
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      idle.refresh();
      heard = true;
      for (const message of parser.push(decoder.decode(chunk as Uint8Array, { stream: true }))) {
        if (message.event !== 'event' && message.event !== 'message') continue;
        const item = feedItemOf(message.data);
        tell(reader, item, message.id ?? item.cursor);
        if (finished(reader)) return { kind: 'done' };
      }
    }
    return { kind: 'lost', why: 'the stream ended', heard };
  } catch (error) {
    if (isErxError(error)) throw error;
    const why = connection.signal.aborted && !reader.signal.aborted ? 'no heartbeat' : 'no answer';
    return { kind: 'lost', why, heard };
  } finally {
    clearTimeout(idle);
    reader.signal.removeEventListener('abort', stop);
    connection.abort();
  }
}

/** The feed item a stream message carries. */
function feedItemOf(data: string): FeedItem {
  let item: unknown;
  try {
    item = JSON.parse(data);
  } catch {
    item = undefined;
  }
  const cursor = (item as { cursor?: unknown } | undefined)?.cursor;
  if (typeof item !== 'object' || item === null || typeof cursor !== 'string') {
    throw new ErxError('internal_error', 'the event stream sent a message that is no feed event');
  }
  return item as FeedItem;
}
