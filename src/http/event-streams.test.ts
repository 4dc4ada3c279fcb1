/**
 * The streams of an application: at most `maxPerSubject` per subject (the next is a 429 with
 * `Retry-After`), a stream's end frees its place, a stream ends when its token expires or is found
 * inactive, and `closeAll` ends every one. Over a store stand-in with an empty feed and sinks that stand for
 * sockets.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { ErxError } from '../errors.js';
import { FeedClock } from '../service/feed-clock.js';
import type { Store } from '../store/types.js';
import type { StreamSink } from './event-stream.js';
import { DEFAULT_STREAM_OPTIONS, EventStreams } from './event-streams.js';

class Sink extends EventEmitter implements StreamSink {
  writableLength = 0;
  writableNeedDrain = false;
  destroyed = false;
  ended = false;
  write(): boolean {
    return true;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

const store = {
  engine: 'sqlite',
  feedHead: async () => 0,
  readFeed: async () => [],
} as unknown as Store;

function streamsAt(now: { ms: number }, recheckMs = DEFAULT_STREAM_OPTIONS.recheckMs) {
  const clock = new FeedClock(store, { pollMs: 60_000 });
  const options = { ...DEFAULT_STREAM_OPTIONS, recheckMs };
  return { clock, streams: new EventStreams(store, clock, options, () => now.ms) };
}

const reader = (
  sub: string,
  expiresAtMs = Date.now() + 3_600_000,
  stillActive = async () => true,
) => ({
  role: 'pharmacist' as const,
  sub,
  expiresAtMs,
  stillActive,
});
const start = { after: 0, head: 0 };

describe('EventStreams', () => {
  it('admits five streams per subject, refuses the sixth with 429, frees a place on close', async () => {
    const { clock, streams } = streamsAt({ ms: Date.now() });
    const sinks = Array.from({ length: 5 }, () => new Sink());
    for (const sink of sinks) {
      streams.admit('HIN|a');
      streams.open(sink, reader('HIN|a'), start);
    }
    assert.throws(
      () => streams.admit('HIN|a'),
      (e: unknown) =>
        e instanceof ErxError &&
        e.code === 'too_many_requests' &&
        e.retryAfter === DEFAULT_STREAM_OPTIONS.retryAfterS,
    );
    streams.admit('HIN|b');
    assert.equal(clock.listeners, 5);
    sinks[0]!.emit('close');
    streams.admit('HIN|a');
    assert.equal(streams.size, 4);
    assert.equal(clock.listeners, 4);
    streams.closeAll();
    assert.equal(streams.size, 0);
    assert.equal(clock.listeners, 0);
    assert.ok(sinks.slice(1).every((sink) => sink.ended));
    await clock.close();
  });

  it('ends a stream when its token expires', async () => {
    const now = { ms: Date.now() };
    const { clock, streams } = streamsAt(now);
    const sink = new Sink();
    streams.open(sink, reader('HIN|a', now.ms + 30), start);
    const expired = new Sink();
    streams.open(expired, reader('HIN|b', now.ms - 1), start);
    assert.equal(expired.ended, true);
    assert.equal(sink.ended, false);
    now.ms += 30;
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(sink.ended, true);
    assert.equal(streams.size, 0);
    await clock.close();
  });

  it('ends a stream whose token is found inactive, or cannot be checked, on its next check', async () => {
    const { clock, streams } = streamsAt({ ms: Date.now() }, 10);
    const active = { now: true };
    const kept = new Sink();
    streams.open(
      kept,
      reader('HIN|a', undefined, async () => active.now),
      start,
    );
    const failing = new Sink();
    streams.open(
      failing,
      reader('HIN|b', undefined, () => Promise.reject(new Error('down'))),
      start,
    );
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(kept.ended, false);
    assert.equal(failing.ended, true);
    active.now = false;
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(kept.ended, true);
    assert.equal(streams.size, 0);
    await clock.close();
  });
});
