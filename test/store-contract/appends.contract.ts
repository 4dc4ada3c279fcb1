/**
 * Contract: appends (SPEC.md §7). The chain of one prescription never forks. The store takes an
 * append as data (the decision and the head it was made on) and writes it only while that head
 * stands (compare-and-swap); a held chain is one the caller decides on. The caller serialises its
 * own appends per prescription (`appendHeld`, as the service does).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { StaleHead } from '../../src/store/races.js';
import type { AppendDecision, EventRow, Store } from '../../src/store/types.js';
import {
  appendHeld,
  assertLinear,
  chainOf,
  decideNext,
  fakeEvent,
  insertNew,
  withFixture,
} from './fixture.js';
import type { OpenFixture } from './fixture.js';

/** The next link after `head` of the chain of `id` whose last event is `last`. */
function after(last: EventRow): AppendDecision {
  return { event: fakeEvent(last.prescriptionId, last.seq + 1, last.hash) };
}

/** `appendHeld`, again on a stale head until it lands (another process moved the head). */
async function appendUntilLanded(store: Store, id: string, maxDelayMs: number): Promise<EventRow> {
  for (;;) {
    try {
      return await appendHeld(store, id, decideNext({ maxDelayMs }));
    } catch (error) {
      if (!(error instanceof StaleHead)) throw error;
    }
  }
}

/** Registers the append tests of the contract. */
export function appendContract(open: OpenFixture): void {
  it('appends a decision on the head it was made on and moves the head', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      const decision = after(create.event);
      await store.appendEvent(decision, create.event.hash);
      assert.deepEqual(await assertLinear(store, row.id), [create.event, decision.event]);
      assert.deepEqual(await store.getEvent(decision.event.id), decision.event);
    }));

  it('signals StaleHead and writes nothing when the head is no longer the expected one', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      // Two decisions made on the same head: the first lands, the second finds the head moved.
      const first = after(create.event);
      const second = after(create.event);
      await store.appendEvent(first, create.event.hash);
      await assert.rejects(
        store.appendEvent(second, create.event.hash),
        (e: unknown) => e instanceof StaleHead,
      );
      assert.equal(await store.getEvent(second.event.id), undefined);
      assert.deepEqual(await assertLinear(store, row.id), [create.event, first.event]);
    }));

  it('signals StaleHead for a prescription that does not exist, writing nothing', () =>
    withFixture(open, async ({ store }) => {
      const event = fakeEvent('unknown', 1, 'hash-of-nothing');
      await assert.rejects(
        store.appendEvent({ event }, 'hash-of-nothing'),
        (e: unknown) => e instanceof StaleHead,
      );
      assert.equal(await store.getEvent(event.id), undefined);
      assert.equal(await store.holdChain('unknown'), undefined);
    }));

  it('refuses an event that would fork the chain (same seq or same parent), writing nothing', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      const first = await appendHeld(store, row.id, decideNext());
      const sameSeq = fakeEvent(row.id, 1, first.hash);
      const sameParent = fakeEvent(row.id, 2, create.event.hash);
      for (const event of [sameSeq, sameParent]) {
        await assert.rejects(
          store.appendEvent({ event }, first.hash),
          (e: unknown) => e instanceof StaleHead,
        );
        assert.equal(await store.getEvent(event.id), undefined);
      }
      assert.deepEqual(await assertLinear(store, row.id), [create.event, first]);
      await appendHeld(store, row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).length, 3);
    }));

  it('holds the chain as committed; a release without an append writes nothing', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      const held = await store.holdChain(row.id);
      assert.ok(held);
      assert.deepEqual(held.state, { prescription: row, events: [create.event] });
      await held.release();
      await held.release();
      assert.deepEqual(await chainOf(store, row.id), { prescription: row, events: [create.event] });
      const next = await appendHeld(store, row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).at(-1)?.id, next.id);
    }));

  it('writes nothing when the decision on a held chain fails, then appends normally', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      const refusal = new Error('refused by the rules of state');
      await assert.rejects(
        appendHeld(store, row.id, async () => {
          throw refusal;
        }),
        (e: unknown) => e === refusal,
      );
      assert.deepEqual(await chainOf(store, row.id), { prescription: row, events: [create.event] });
      const next = await appendHeld(store, row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).at(-1)?.id, next.id);
    }));

  it('keeps 50 concurrent appends of one process on one prescription in one linear chain', () =>
    withFixture(open, async ({ store }) => {
      const { row } = await insertNew(store);
      const other = await insertNew(store);
      const appended = await Promise.all([
        ...Array.from({ length: 50 }, () =>
          appendHeld(store, row.id, decideNext({ maxDelayMs: 4 })),
        ),
        // Another prescription meanwhile: its appends are independent.
        ...Array.from({ length: 5 }, () =>
          appendHeld(store, other.row.id, decideNext({ maxDelayMs: 4 })),
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
      // Each retries on a stale head, as the service does (a bounded number of times there).
      const appended = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          appendUntilLanded(i % 2 === 0 ? store : sibling, row.id, 3),
        ),
      );
      const events = await assertLinear(store, row.id);
      assert.equal(events.length, 31);
      assert.deepEqual(
        new Set(events.slice(1).map((e) => e.id)),
        new Set(appended.map((e) => e.id)),
      );
      assert.deepEqual(await assertLinear(sibling, row.id), events);
    }));

  it('reads a chain anew after another instance appended to it', () =>
    withFixture(open, async ({ store, openSibling }) => {
      const sibling = await openSibling();
      const { row, create } = await insertNew(store);
      for (let round = 1; round <= 3; round++) {
        assert.equal((await chainOf(store, row.id))?.events.length, round);
        const event = await appendHeld(sibling, row.id, decideNext());
        const state = await chainOf(store, row.id);
        assert.equal(state?.events.length, round + 1);
        assert.deepEqual(state?.events.at(-1), event);
        assert.equal(state?.prescription.headHash, event.hash);
        assert.deepEqual(state?.events[0], create.event);
      }
    }));
}
