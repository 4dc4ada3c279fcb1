/**
 * One event stream over a store stand-in and a sink that stands for the socket: it sends the
 * events after its cursor page by page in the SSE format, then what each wake-up brings; it waits
 * for the socket to drain between pages; a client that does not read is dropped once its unsent
 * bytes pass the bound; a failing store ends the stream; heartbeats are comment lines.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { SignedEvent } from '../ledger/event.js';
import type { FeedRow, FeedStore, FeedViewer } from '../store/types.js';
import { memoryPki, makeChain } from '../../test/support/ledger/chain.js';
import { EventStream, storeFeed } from './event-stream.js';
import type { StreamLimits, StreamSink } from './event-stream.js';

/** A socket stand-in: keeps what is written; its unsent bytes are what the test says. */
class Sink extends EventEmitter implements StreamSink {
  text = '';
  writableLength = 0;
  writableNeedDrain = false;
  destroyed = false;
  ended = false;
  /** Unsent bytes grow by what is written (a client that does not read). */
  stuck = false;

  write(chunk: string): boolean {
    this.text += chunk;
    if (this.stuck) this.writableLength += Buffer.byteLength(chunk);
    return !this.writableNeedDrain;
  }

  end(): void {
    this.ended = true;
  }

  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }

  /** The `id`s of the messages sent. */
  ids(): string[] {
    return [...this.text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);
  }
}

let chain: SignedEvent[];

before(async () => {
  chain = await makeChain((await memoryPki()).signer, { length: 10 });
});

/** A store whose feed is `count` rows, positions 1.., each one of the chain's events. */
function feedStore(count: { n: number }, reads: number[] = []) {
  const rowAt = (position: number): FeedRow => {
    const event = chain[(position - 1) % chain.length]!;
    return {
      position,
      cancelled: false,
      event: {
        ...event,
        prescriptionId: 'p',
        seq: 0,
        parentHash: null,
        actor: null,
        cancels: null,
      },
    };
  };
  return {
    read: async (_viewer: FeedViewer, from: number, upTo: number, limit: number) => {
      reads.push(from);
      const rows: FeedRow[] = [];
      for (let p = from + 1; p <= Math.min(upTo, count.n) && rows.length < limit; p++) {
        rows.push(rowAt(p));
      }
      return rows;
    },
  } as unknown as FeedStore;
}

const viewer: FeedViewer = { role: 'pharmacist', sub: 'HIN|x' };
const limits: StreamLimits = { heartbeatMs: 60_000, maxBufferedBytes: 1 << 20, pageSize: 10 };
const cursor = (p: number): string => `f1.${p.toString(36)}`;
const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => cursor(from + i));

async function until(condition: () => boolean): Promise<void> {
  const end = Date.now() + 2_000;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('EventStream', () => {
  const open: EventStream[] = [];
  after(() => open.forEach((s) => s.end()));

  function stream(sink: Sink, feed: FeedStore, from: { after: number; head: number }, l = limits) {
    let ended = 0;
    const s = new EventStream(sink, storeFeed(feed), viewer, from, l, () => ended++);
    open.push(s);
    return { s, ended: () => ended };
  }

  it('sends the events after its cursor, page by page, then what each wake-up brings', async () => {
    const count = { n: 25 };
    const sink = new Sink();
    const { s } = stream(sink, feedStore(count), { after: 3, head: 25 });
    s.start();
    await until(() => sink.ids().length === 22);
    assert.deepEqual(sink.ids(), range(4, 25));
    assert.match(sink.text, /^retry: \d+\n\n/);
    const message = sink.text.split('\n\n')[1]!.split('\n');
    assert.equal(message[0], `id: ${cursor(4)}`);
    const item = JSON.parse(message[1]!.slice('data: '.length));
    assert.equal(item.cursor, cursor(4));
    assert.equal(item.prescription_id, 'p');
    assert.equal(item.event.id, chain[3]!.id);
    count.n = 31;
    s.wake(31);
    await until(() => sink.ids().length === 28);
    assert.deepEqual(sink.ids(), range(4, 31));
    s.end();
  });

  it('waits for the socket to drain between pages', async () => {
    const reads: number[] = [];
    const sink = new Sink();
    sink.writableNeedDrain = true;
    const { s } = stream(sink, feedStore({ n: 30 }, reads), { after: 0, head: 30 });
    s.start();
    await until(() => sink.ids().length === 10);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(reads, [0]);
    sink.writableNeedDrain = false;
    sink.emit('drain');
    await until(() => sink.ids().length === 30);
    s.end();
  });

  it('drops a client whose unsent bytes pass the bound', async () => {
    const sink = new Sink();
    sink.stuck = true;
    const { s, ended } = stream(
      sink,
      feedStore({ n: 30 }),
      { after: 0, head: 30 },
      { ...limits, maxBufferedBytes: 20_000 },
    );
    s.start();
    await until(() => ended() === 1);
    assert.equal(sink.destroyed, true);
    assert.ok(sink.ids().length < 30);
    assert.ok(sink.writableLength < 20_000 + 10_000);
  });

  it('ends when the store fails, and when its client goes', async () => {
    const failing = { read: async () => Promise.reject(new Error('down')) } as unknown as FeedStore;
    const sink = new Sink();
    const first = stream(sink, failing, { after: 0, head: 5 });
    first.s.start();
    await until(() => first.ended() === 1);
    assert.equal(sink.ended, true);

    const gone = new Sink();
    const second = stream(gone, feedStore({ n: 0 }), { after: 0, head: 0 });
    second.s.start();
    gone.emit('close');
    assert.equal(second.ended(), 1);
    second.s.end();
    assert.equal(second.ended(), 1);
  });

  it('sends a comment line every heartbeat', async () => {
    const sink = new Sink();
    const { s } = stream(
      sink,
      feedStore({ n: 0 }),
      { after: 0, head: 0 },
      {
        ...limits,
        heartbeatMs: 5,
      },
    );
    s.start();
    await until(() => (sink.text.match(/^: heartbeat$/gm) ?? []).length >= 2);
    s.end();
    const sent = sink.text.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(sink.text.length, sent);
  });
});
