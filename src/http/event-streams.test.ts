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
import { FeedClock } from '../service/index.js';
import type { FeedViewer, FeedWindowRow, Store } from '../store/types.js';
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
  feed: { head: async () => 0, read: async () => [] },
} as unknown as Store;

function streamsAt(now: { ms: number }, recheckMs = DEFAULT_STREAM_OPTIONS.recheckMs) {
  const clock = new FeedClock(store, { pollMs: 60_000 });
  const options = { ...DEFAULT_STREAM_OPTIONS, recheckMs };
  return { clock, streams: new EventStreams(store.feed, clock, options, () => now.ms) };
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

    /**
     * A feed of the chain's 3 events (HIN|a wrote the first two, HIN|b the third) that logs the
     * reads it answers: a viewer's own read by its subject, a window by its range.
     */
    function feedOf3() {
      const reads: string[] = [];
      const rowAt = (p: number): FeedWindowRow => ({
        position: p,
        cancelled: false,
        event: { ...chain[p - 1]!, prescriptionId: 'p', actor: null, cancels: null },
        issuer: 'HIN|doc',
        actor: p < 3 ? 'HIN|a' : 'HIN|b',
        type: 'partial_dispense',
        actorsBefore: [],
      });
      const rows = (after: number, upTo: number, limit: number): FeedWindowRow[] => {
        const out: FeedWindowRow[] = [];
        for (let p = after + 1; p <= Math.min(upTo, 3) && out.length < limit; p++)
          out.push(rowAt(p));
        return out;
      };
      const feed = {
        engine: 'sqlite',
        feed: {
          head: async () => 3,
          read: async (viewer: FeedViewer, after: number, upTo: number, limit: number) => {
            reads.push(viewer.sub);
            return rows(after, upTo, Infinity)
              .filter((r) => r.actor === viewer.sub)
              .slice(0, limit);
          },
          readWindow: async (after: number, upTo: number, limit: number) => {
            reads.push(`window ${after} ${upTo}`);
            return rows(after, upTo, limit);
          },
        },
      } as unknown as Store;
      return { feed, reads };
    }

    const ids = (sink: Sink): string[] => [...sink.text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);

    async function until(condition: () => boolean): Promise<void> {
      for (let i = 0; i < 400 && !condition(); i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.ok(condition(), 'condition not met in time');
    }

    it('reads one window for every subject woken together, and shows each what it may see', async () => {
      const { feed, reads } = feedOf3();
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const streams = new EventStreams(feed.feed, clock, DEFAULT_STREAM_OPTIONS, Date.now);
      const sinks = ['HIN|a', 'HIN|a', 'HIN|a', 'HIN|b', 'HIN|c'].map((sub) => {
        const sink = new Sink();
        streams.open(sink, reader(sub), start);
        return sink;
      });
      await until(() => sinks.slice(0, 4).every((s) => ids(s).length > 0));
      assert.deepEqual(reads, ['window 0 3']);
      assert.deepEqual(ids(sinks[0]!), ['f1.1', 'f1.2']);
      assert.deepEqual(ids(sinks[3]!), ['f1.3']);
      assert.deepEqual(ids(sinks[4]!), []);
      // The same messages, made once: every stream of a sent the same bytes.
      assert.ok(sinks.slice(1, 3).every((sink) => sink.text === sinks[0]!.text));
      streams.closeAll();
      await clock.close();
    });

    it('keeps a window for one wake-up round only', async () => {
      const { feed, reads } = feedOf3();
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const streams = new EventStreams(feed.feed, clock, DEFAULT_STREAM_OPTIONS, Date.now);
      const first = new Sink();
      streams.open(first, reader('HIN|a'), start);
      await until(() => ids(first).length === 2);
      // Opened after the round: its own start reads the same range again (a cancel since then
      // would show).
      const later = new Sink();
      streams.open(later, reader('HIN|b'), { after: 0, head: 3 });
      await until(() => ids(later).length === 1);
      assert.deepEqual(reads, ['window 0 3', 'window 0 3']);
      streams.closeAll();
      await clock.close();
    });

    it('wakes one subject per turn, so other work runs between them', async () => {
      const { feed } = feedOf3();
      const log: string[] = [];
      const readFeedWindow = feed.feed.readWindow.bind(feed.feed);
      // Work that arrives during a read (a call's I/O) runs before the next subject is woken.
      feed.feed.readWindow = async (...args) => {
        setImmediate(() => log.push('other work'));
        return readFeedWindow(...args);
      };
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const streams = new EventStreams(feed.feed, clock, DEFAULT_STREAM_OPTIONS, Date.now);
      for (const sub of ['HIN|a', 'HIN|a', 'HIN|b']) {
        const sink = new Sink();
        const write = sink.write.bind(sink);
        sink.write = (chunk: string) => {
          if (chunk.includes('id: ')) log.push(sub);
          return write(chunk);
        };
        streams.open(sink, reader(sub), start);
      }
      await until(() => log.includes('HIN|b'));
      assert.deepEqual(log.slice(0, 4), ['HIN|a', 'HIN|a', 'other work', 'HIN|b']);
      streams.closeAll();
      await clock.close();
    });

    it('reads a window per cursor, and its own pages for a stream more than a page behind', async () => {
      const { feed, reads } = feedOf3();
      const clock = new FeedClock(feed, { pollMs: 5, minWakeMs: 0 });
      const options = { ...DEFAULT_STREAM_OPTIONS, pageSize: 2 };
      const streams = new EventStreams(feed.feed, clock, options, Date.now);
      const behind = new Sink();
      const ahead = new Sink();
      streams.open(behind, reader('HIN|b'), start);
      streams.open(ahead, reader('HIN|b'), { after: 2, head: 0 });
      await until(() => ids(behind).length === 1 && ids(ahead).length === 1);
      // behind: (0, 3] is more than a page: its own read of 2 rows (none its own, so through 3);
      // ahead: (2, 3] fits a page: a window.
      assert.deepEqual(reads.sort(), ['HIN|b', 'window 2 3']);
      assert.deepEqual(ids(behind), ['f1.3']);
      streams.closeAll();
      await clock.close();
    });
  });
});
