/**
 * The feed clock over a store stand-in: listeners hear of every move of the head, polling runs
 * only while someone listens, a local append on PostgreSQL is numbered soon without any listener,
 * looks never overlap, and close stops everything.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../store/types.js';
import { FeedClock } from './feed-clock.js';

/** A store that answers the head it is given and counts numberings and looks. */
function fakeStore(engine: 'sqlite' | 'postgres') {
  const state = { head: 0, sequenced: 0, heads: 0, running: 0, overlapped: false };
  const feed = {
    sequence: async () => {
      state.sequenced++;
      return 0;
    },
    head: async () => {
      state.running++;
      if (state.running > 1) state.overlapped = true;
      // The head as the look's statement saw it, answered a moment later.
      const head = state.head;
      await new Promise((resolve) => setTimeout(resolve, 2));
      state.running--;
      state.heads++;
      return head;
    },
  };
  const store = { engine, feed } as unknown as Store;
  return { store, state };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('FeedClock', () => {
  it('tells its listeners each new head, found by polling', async () => {
    const { store, state } = fakeStore('sqlite');
    const clock = new FeedClock(store, { pollMs: 10, minWakeMs: 0 });
    const heard: number[] = [];
    clock.listen((head) => heard.push(head));
    state.head = 3;
    await until(() => heard.length === 1);
    state.head = 5;
    await until(() => heard.length === 2);
    assert.deepEqual(heard, [3, 5]);
    assert.equal(clock.head, 5);
    await clock.close();
  });

  it('polls only while someone listens', async () => {
    const { store, state } = fakeStore('sqlite');
    const clock = new FeedClock(store, { pollMs: 5 });
    await sleep(40);
    assert.equal(state.heads, 0);
    const stop = clock.listen(() => undefined);
    await until(() => state.heads >= 2);
    stop();
    await sleep(20);
    const after = state.heads;
    await sleep(40);
    assert.equal(state.heads, after);
    await clock.close();
  });

  it('numbers a local append soon on PostgreSQL, with or without listeners', async () => {
    const { store, state } = fakeStore('postgres');
    const clock = new FeedClock(store, { pollMs: 60_000, kickDelayMs: 5 });
    // The appends of one moment are numbered together.
    for (let i = 0; i < 10; i++) clock.appended();
    await until(() => state.sequenced === 1);
    await sleep(30);
    assert.equal(state.sequenced, 1);
    await clock.close();
  });

  it('on SQLite, an append wakes the listeners at once and costs nothing without them', async () => {
    const { store, state } = fakeStore('sqlite');
    const clock = new FeedClock(store, { pollMs: 60_000, kickDelayMs: 1 });
    clock.appended();
    await sleep(20);
    assert.equal(state.heads, 0);
    const heard: number[] = [];
    clock.listen((head) => heard.push(head));
    state.head = 1;
    clock.appended();
    await until(() => heard.length === 1);
    await clock.close();
  });

  it('wakes its listeners at most every minWakeMs, with the newest head', async () => {
    const { store, state } = fakeStore('sqlite');
    const clock = new FeedClock(store, { pollMs: 60_000, minWakeMs: 80 });
    const heard: number[] = [];
    clock.listen((head) => heard.push(head));
    for (let head = 1; head <= 5; head++) {
      state.head = head;
      await clock.look();
    }
    assert.deepEqual(heard, [1]);
    await until(() => heard.length === 2);
    assert.deepEqual(heard, [1, 5]);
    await clock.close();
  });

  it('never runs two looks at once; one asked for meanwhile starts after, shared', async () => {
    const { store, state } = fakeStore('sqlite');
    const clock = new FeedClock(store, { pollMs: 60_000 });
    const heard: number[] = [];
    clock.listen((head) => heard.push(head));
    const first = clock.look();
    state.head = 2;
    const heads = await Promise.all([first, clock.look(), clock.look()]);
    assert.deepEqual(heads, [0, 2, 2]);
    assert.equal(state.overlapped, false);
    assert.equal(state.heads, 2);
    assert.deepEqual(heard, [2]);
    await clock.close();
  });

  it('reports a failed look and a throwing listener, and goes on', async () => {
    const { store, state } = fakeStore('sqlite');
    const errors: unknown[] = [];
    const failing = {
      ...store,
      feed: { ...store.feed, head: async () => Promise.reject(new Error('down')) },
    };
    const clock = new FeedClock(failing as Store, {
      pollMs: 5,
      onError: (e) => errors.push(e),
    });
    await assert.rejects(clock.look(), /down/);
    // Its own looks report the failure instead.
    const stop = clock.listen(() => undefined);
    await until(() => errors.length >= 1);
    stop();
    await clock.close();
    errors.length = 1;

    const other = new FeedClock(store, { onError: (e) => errors.push(e) });
    const heard: number[] = [];
    other.listen(() => {
      throw new Error('listener');
    });
    other.listen((head) => heard.push(head));
    state.head = 1;
    await other.look();
    assert.deepEqual(heard, [1]);
    assert.equal(errors.length, 2);
    await other.close();
  });

  it('after close, neither polls nor numbers nor takes listeners', async () => {
    const { store, state } = fakeStore('postgres');
    const clock = new FeedClock(store, { pollMs: 5, kickDelayMs: 1 });
    clock.listen(() => undefined);
    await clock.close();
    const looked = state.heads;
    clock.appended();
    clock.listen(() => undefined);
    await sleep(30);
    assert.equal(state.heads, looked);
    assert.equal(clock.listeners, 0);
  });
});
