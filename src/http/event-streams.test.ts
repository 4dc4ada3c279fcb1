/**
 * The streams of an application: at most `maxPerSubject` per subject (the next is a 429 with
 * `Retry-After`), a stream's end frees its place, a stream ends when its token expires or is found
 * inactive, and `closeAll` ends every one. Streams of one viewer at one cursor share their reads
 * of the feed and its messages; subjects are woken one per turn. Over a store stand-in and sinks
 * that stand for sockets.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { before, describe, it } from 'node:test';
import type { SignedEvent } from '../ledger/event.js';
import { ErxError } from '../errors.js';
import { FeedClock } from '../service/feed-clock.js';
import type { FeedRow, FeedViewer, Store } from '../store/types.js';
import { makeChain, memoryPki } from '../../test/support/ledger/chain.js';
import type { StreamSink } from './event-stream.js';
import { DEFAULT_STREAM_OPTIONS, EventStreams } from './event-streams.js';

class Sink extends EventEmitter implements StreamSink {
  writableLength = 0;
  writableNeedDrain = false;
  destroyed = false;
  ended = false;
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
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

  describe('reading the feed', () => {
    let chain: SignedEvent[];
    before(async () => {
      chain = await makeChain((await memoryPki()).signer, { length: 3 });
    });

    /** A feed of the chain's 3 events that counts the reads it answers, by viewer. */
    function feedOf3() {
      const reads: string[] = [];
      const feed = {
        engine: 'sqlite',
        feedHead: async () => 3,
        readFeed: async (viewer: FeedViewer, after: number, upTo: number, limit: number) => {
          reads.push(viewer.sub);
          const rows: FeedRow[] = [];
          for (let p = after + 1; p <= upTo && rows.length < limit; p++) {
            const event = chain[p - 1]!;
            rows.push({ position: p, cancelled: false, event: { ...event, prescriptionId: 'p' } });
          }
          return rows;
        },
      } as unknown as Store;
      return { feed, reads };
    }

    it("shares one read among a viewer's streams at one cursor, not among viewers", async () => {
      const { feed, reads } = feedOf3();
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const streams = new EventStreams(feed, clock, DEFAULT_STREAM_OPTIONS, Date.now);
      const sinks = ['HIN|a', 'HIN|a', 'HIN|a', 'HIN|b'].map((sub) => {
        const sink = new Sink();
        streams.open(sink, reader(sub), start);
        return sink;
      });
      const ids = (sink: Sink): string[] =>
        [...sink.text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);
      for (let i = 0; i < 400 && !sinks.every((s) => ids(s).length === 3); i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.deepEqual(reads.sort(), ['HIN|a', 'HIN|b']);
      assert.deepEqual(ids(sinks[0]!), ['f1.1', 'f1.2', 'f1.3']);
      // The same messages, made once: every stream sent the same bytes.
      assert.ok(sinks.every((sink) => sink.text === sinks[0]!.text));
      streams.closeAll();
      await clock.close();
    });

    it('wakes one subject per turn, so other work runs between their reads', async () => {
      const { feed, reads } = feedOf3();
      const readFeed = feed.readFeed.bind(feed);
      // Work that arrives during a read (a call's I/O) runs before the next subject is woken.
      feed.readFeed = async (...args) => {
        setImmediate(() => reads.push('other work'));
        return readFeed(...args);
      };
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const streams = new EventStreams(feed, clock, DEFAULT_STREAM_OPTIONS, Date.now);
      for (const sub of ['HIN|a', 'HIN|a', 'HIN|b']) streams.open(new Sink(), reader(sub), start);
      for (let i = 0; i < 400 && reads.filter((r) => r.startsWith('HIN')).length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.deepEqual(reads.slice(0, 3), ['HIN|a', 'other work', 'HIN|b']);
      streams.closeAll();
      await clock.close();
    });

    it('reads again for a stream at another cursor', async () => {
      const { feed, reads } = feedOf3();
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const streams = new EventStreams(feed, clock, DEFAULT_STREAM_OPTIONS, Date.now);
      const behind = new Sink();
      const ahead = new Sink();
      streams.open(behind, reader('HIN|a'), start);
      streams.open(ahead, reader('HIN|a'), { after: 2, head: 0 });
      for (
        let i = 0;
        i < 400 && !(behind.text.includes('f1.3') && ahead.text.includes('f1.3'));
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal(reads.length, 2);
      assert.doesNotMatch(ahead.text, /id: f1\.1\n/);
      streams.closeAll();
      await clock.close();
    });
  });
});
