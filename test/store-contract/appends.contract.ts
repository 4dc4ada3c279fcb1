/**
 * Contract: appends (SPEC.md §7). The chain of one prescription never forks: appends are
 * serialised per prescription, `decide` sees the chain it will extend, a refusal writes nothing.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StaleHead } from '../../src/store/races.js';
import type { EventRow } from '../../src/store/types.js';
import { assertLinear, decideNext, fakeEvent, insertNew, withFixture } from './fixture.js';
import type { OpenFixture } from './fixture.js';
import { NoSuchPrescription } from '../../src/store/races.js';

/** Registers the append tests of the contract. */
export function appendContract(open: OpenFixture): void {
  it('appends the event decide builds, on the chain it was shown, and moves the head', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      let seen: readonly EventRow[] = [];
      let seenHead = '';
      const event = await store.appendEvent(row.id, async (state) => {
        seen = state.events;
        seenHead = state.prescription.headHash;
        return decideNext()(state);
      });
      assert.deepEqual(seen, [create.event]);
      assert.equal(seenHead, create.event.hash);
      assert.equal(event.seq, 1);
      assert.equal(event.parentHash, create.event.hash);
      assert.deepEqual(await assertLinear(store, row.id), [create.event, event]);
      assert.deepEqual(await store.getEvent(event.id), event);
    }));

  it('signals an unknown prescription without calling decide', () =>
    withFixture(open, async ({ store }) => {
      let called = false;
      await assert.rejects(
        store.appendEvent('unknown', async (state) => {
          called = true;
          return decideNext()(state);
        }),
        (e: unknown) => e instanceof NoSuchPrescription,
      );
      assert.equal(called, false);
    }));

  it('rethrows what decide throws and writes nothing, then appends normally', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      const refusal = new Error('refused by the rules of state');
      await assert.rejects(
        store.appendEvent(row.id, async () => {
          throw refusal;
        }),
        (e: unknown) => e === refusal,
      );
      assert.deepEqual(await store.getChain(row.id), {
        prescription: row,
        events: [create.event],
      });
      const next = await store.appendEvent(row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).at(-1)?.id, next.id);
    }));

  it('refuses an event that would fork the chain (same seq or same parent), writing nothing', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      const first = await store.appendEvent(row.id, decideNext());
      const sameSeq = fakeEvent(row.id, 1, first.hash);
      const sameParent = fakeEvent(row.id, 2, create.event.hash);
      for (const event of [sameSeq, sameParent]) {
        await assert.rejects(
          store.appendEvent(row.id, async () => ({ event })),
          (e: unknown) => e instanceof StaleHead,
        );
        assert.equal(await store.getEvent(event.id), undefined);
      }
      assert.deepEqual(await assertLinear(store, row.id), [create.event, first]);
      await store.appendEvent(row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).length, 3);
    }));

  it('serialises 50 concurrent appends on one prescription into one linear chain', () =>
    withFixture(open, async ({ store }) => {
      const { row } = await insertNew(store);
      const other = await insertNew(store);
      const appended = await Promise.all([
        ...Array.from({ length: 50 }, () =>
          store.appendEvent(row.id, decideNext({ maxDelayMs: 4 })),
        ),
        // Another prescription meanwhile: its appends are independent.
        ...Array.from({ length: 5 }, () =>
          store.appendEvent(other.row.id, decideNext({ maxDelayMs: 4 })),
        ),
      ]);
      const events = await assertLinear(store, row.id);
      assert.equal(events.length, 51);
      assert.deepEqual(
        new Set(events.slice(1).map((e) => e.id)),
        new Set(appended.slice(0, 50).map((e) => e.id)),
      );
      assert.equal((await assertLinear(store, other.row.id)).length, 6);
    }));

  it('keeps one linear chain when a second instance appends at the same time', () =>
    withFixture(open, async ({ store, openSibling }) => {
      const sibling = await openSibling();
      const { row } = await insertNew(store);
      const calls = Array.from({ length: 30 }, (_, i) =>
        (i % 2 === 0 ? store : sibling).appendEvent(row.id, decideNext({ maxDelayMs: 3 })),
      );
      const results = await Promise.allSettled(calls);
      const acknowledged = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      // An engine that checks the head instead of locking may give up on a lost race (StaleHead,
      // answered as an error); it must never lose or fork an acknowledged event.
      for (const r of results) {
        if (r.status === 'rejected') assert.ok(r.reason instanceof StaleHead, String(r.reason));
      }
      assert.ok(acknowledged.length > 0);
      const events = await assertLinear(store, row.id);
      assert.equal(events.length, 1 + acknowledged.length);
      const ids = new Set(events.map((e) => e.id));
      for (const e of acknowledged) assert.ok(ids.has(e.id));
      assert.deepEqual(await assertLinear(sibling, row.id), events);
    }));

  it('reads a chain anew after another instance appended to it', () =>
    withFixture(open, async ({ store, openSibling }) => {
      const sibling = await openSibling();
      const { row, create } = await insertNew(store);
      for (let round = 1; round <= 3; round++) {
        assert.equal((await store.getChain(row.id))?.events.length, round);
        const event = await sibling.appendEvent(row.id, decideNext());
        const state = await store.getChain(row.id);
        assert.equal(state?.events.length, round + 1);
        assert.deepEqual(state?.events.at(-1), event);
        assert.equal(state?.prescription.headHash, event.hash);
        assert.deepEqual(state?.events[0], create.event);
      }
    }));
}
