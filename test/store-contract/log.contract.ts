/**
 * Contract: the transparency log's part of the store (`Store.log`). A growth is written only onto
 * the size it was computed from, so of two integrators racing from one size exactly one writes;
 * hashes, leaves, checkpoints and cosignatures read back as written; candidates are the events in
 * feed order; a leaf's chain, hash and event are found again.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { LeafRow, LogAppend } from '../../src/store/log.js';
import type { Store } from '../../src/store/types.js';
import { chainName } from '../../src/transparency/leaf-entry.js';
import { insertNew, withFixture } from './fixture.js';
import type { OpenFixture } from './fixture.js';

/** A growth from `fromSize` to `size` with `hashes` stored hashes at indexes from `firstIndex`. */
function growth(
  fromSize: number,
  size: number,
  firstIndex: number,
  hashes: number,
  signedAt = size * 10_000,
): LogAppend {
  return {
    fromSize,
    leaves: [],
    hashes: Array.from({ length: hashes }, (_, i) => ({
      index: firstIndex + i,
      hash: randomBytes(32),
    })),
    checkpoint: {
      size,
      root: randomBytes(32),
      note: `erx.test\n${size}\nroot\n`,
      signedAt,
    },
  };
}

async function numbered(store: Store): Promise<void> {
  await store.feed.sequence();
}

/** Registers the log tests of the contract. */
export function logContract(open: OpenFixture): void {
  it('keeps a growth and its checkpoint, and refuses one computed from an outdated size', () =>
    withFixture(open, async ({ store }) => {
      assert.equal(await store.log.head(), undefined);
      const first = growth(0, 2, 0, 3);
      assert.equal(await store.log.append(first), true);
      assert.equal(await store.log.append(growth(0, 1, 0, 1)), false);
      const head = await store.log.head();
      assert.equal(head?.size, 2);
      assert.deepEqual(Buffer.from(head!.root), Buffer.from(first.checkpoint.root));
      assert.equal(head?.note, first.checkpoint.note);
      assert.equal(head?.signedAt, first.checkpoint.signedAt);
      const read = await store.log.readHashes([2, 0, 2]);
      assert.deepEqual(
        read.map((h) => Buffer.from(h).toString('hex')),
        [2, 0, 2].map((i) => Buffer.from(first.hashes[i]!.hash).toString('hex')),
      );
      await assert.rejects(store.log.readHashes([0, 7]));
      assert.equal(await store.log.append(growth(2, 3, 3, 1)), true);
      assert.equal((await store.log.head())?.size, 3);
      assert.deepEqual(
        (await store.log.checkpointsAfter(0, 10)).map((c) => c.size),
        [2, 3],
      );
      assert.deepEqual(
        (await store.log.checkpointsAfter(2, 10)).map((c) => c.size),
        [3],
      );
      assert.deepEqual(await store.log.checkpointsAfter(0, 0), []);
    }));

  it('keeps checkpoints about a second apart, and every cosigned one', () =>
    withFixture(open, async ({ store }) => {
      await store.log.append(growth(0, 1, 0, 1, 10_000));
      await store.log.append(growth(1, 2, 1, 2, 10_400));
      await store.log.addCosignature(2, 'w.example', '— w.example AAAA');
      await store.log.append(growth(2, 3, 3, 1, 10_500));
      await store.log.append(growth(3, 4, 4, 3, 10_900));
      await store.log.append(growth(4, 5, 7, 1, 12_000));
      // 1 stays (nothing before it); 2 is cosigned; 3 goes at 4 (1 and 2 within a second of
      // it); 4 stays at 5 (nothing kept within a second of 5).
      assert.deepEqual(
        (await store.log.checkpointsAfter(0, 10)).map((c) => c.size),
        [1, 2, 4, 5],
      );
      // Under steady growth every few milliseconds, one checkpoint about every second is kept.
      let size = 5;
      for (let at = 12_010; at <= 14_500; at += 10) {
        await store.log.append(growth(size, size + 1, 8 + size, 1, at));
        size += 1;
      }
      const times = (await store.log.checkpointsAfter(5, 1_000)).map((c) => c.signedAt);
      assert.ok(times.length >= 2 && times.length <= 4, `kept ${times.join(', ')}`);
      assert.equal(times.at(-1), 14_500);
      assert.equal((await store.log.readHashes([0, 7])).length, 2);
    }));

  it('lets exactly one of two growths from the same size through, also from another instance', () =>
    withFixture(open, async ({ store, openSibling }) => {
      const sibling = await openSibling();
      const results = await Promise.all([
        store.log.append(growth(0, 1, 0, 1)),
        sibling.log.append(growth(0, 1, 0, 1)),
        store.log.append(growth(0, 2, 0, 3)),
      ]);
      assert.equal(results.filter(Boolean).length, 1);
    }));

  it('reads the events as candidates in feed order', () =>
    withFixture(open, async ({ store }) => {
      // Numbered one at a time: PostgreSQL numbers what one run finds in chain order, not commit order.
      const a = await insertNew(store);
      await numbered(store);
      const b = await insertNew(store);
      await numbered(store);
      const read = await store.log.readCandidates(0, 10);
      assert.deepEqual(
        read.map((c) => [c.feedSeq, c.id, c.prescriptionId, c.seq, c.hash, c.parentHash]),
        [
          [1, a.create.event.id, a.row.id, 0, a.create.event.hash, null],
          [2, b.create.event.id, b.row.id, 0, b.create.event.hash, null],
        ],
      );
      assert.deepEqual(await store.log.readCandidates(1, 10), [read[1]]);
      assert.deepEqual(await store.log.readCandidates(0, 0), []);
      assert.equal(await store.log.eventHashAt(a.row.id, 0), a.create.event.hash);
      assert.equal(await store.log.eventHashAt(a.row.id, 1), undefined);
    }));

  it('reads where the event of a leaf stands now, and the events a leaf names or its position holds', () =>
    withFixture(open, async ({ store }) => {
      const a = await insertNew(store);
      await numbered(store);
      const b = await insertNew(store);
      await numbered(store);
      const chain = chainName(a.row.id);
      const leaf = (index: number, eventId: string, feedSeq: number): LeafRow => ({
        index,
        chain,
        place: index,
        hash: a.create.event.hash,
        prev: index === 0 ? undefined : index - 1,
        eventId,
        feedSeq,
      });
      // Leaf 1 names an event that is gone, read at the position b's event holds now.
      const leaves = [leaf(0, a.create.event.id, 1), leaf(1, 'gone', 2)];
      assert.equal(await store.log.append({ ...growth(0, 2, 0, 3), leaves }), true);
      const ofChain = await store.log.chainLeaves(chain, 2);
      assert.deepEqual(
        ofChain.map((l) => [l.index, l.feedSeq, l.feedSeqNow]),
        [
          [0, 1, 1],
          [1, 2, undefined],
        ],
      );
      const found = await store.log.leafEvents([a.create.event.id, 'gone'], [1, 2, 99]);
      assert.deepEqual(
        found
          .map((e) => [e.id, e.prescriptionId, e.seq, e.hash, e.feedSeq, e.live])
          .sort((x, y) => Number(x[4]) - Number(y[4])),
        [
          [a.create.event.id, a.row.id, 0, a.create.event.hash, 1, true],
          [b.create.event.id, b.row.id, 0, b.create.event.hash, 2, true],
        ],
      );
      assert.deepEqual(await store.log.leafEvents([], []), []);
    }));

  it('keeps the leaves of a growth as taken in, found by chain, hash and event', () =>
    withFixture(open, async ({ store }) => {
      const chainA = randomBytes(32);
      const chainB = randomBytes(32);
      const leaf = (index: number, chain: Buffer, place: number, prev?: number): LeafRow => ({
        index,
        chain,
        place,
        hash: `${index}`.padStart(64, 'a'),
        prev,
        eventId: `event-${index}`,
        feedSeq: index + 7,
      });
      const leaves = [leaf(0, chainA, 0), leaf(1, chainB, 0), leaf(2, chainA, 1, 0)];
      assert.equal(await store.log.append({ ...growth(0, 3, 0, 4), leaves }), true);
      const norm = (rows: LeafRow[]): unknown[] =>
        rows.map((r) => ({ ...r, chain: r.chain && Buffer.from(r.chain).toString('hex') }));
      assert.deepEqual(norm(await store.log.readLeafRows(0, 10)), norm(leaves));
      assert.deepEqual(norm(await store.log.readLeafRows(1, 1)), norm([leaves[1]!]));
      assert.equal(await store.log.feedReadAt(3), 9);
      assert.equal(await store.log.feedReadAt(0), 0);
      // No event of these ids is stored: each leaf's event stands at no feed position now.
      const ofChain = async (size: number) =>
        (await store.log.chainLeaves(chainA, size)).map(({ feedSeqNow, ...leaf }) => {
          assert.equal(feedSeqNow, undefined);
          return leaf;
        });
      assert.deepEqual(norm(await ofChain(3)), norm([leaves[0]!, leaves[2]!]));
      assert.deepEqual(norm(await ofChain(2)), norm([leaves[0]!]));
      const newest = await store.log.newestOfChains([chainA, chainB, randomBytes(32)], 3);
      assert.deepEqual(
        [...newest.entries()].map(([k, r]) => [k, r.index]).sort(),
        [
          [chainA.toString('hex'), 2],
          [chainB.toString('hex'), 1],
        ].sort(),
      );
      const logged = await store.log.loggedHashes([leaves[2]!.hash, 'f'.repeat(64)], 3);
      assert.deepEqual([...logged], [leaves[2]!.hash]);
      assert.equal((await store.log.loggedHashes([leaves[2]!.hash], 2)).size, 0);
      const positions = await store.log.positions(['event-2', 'unknown', 'event-0']);
      assert.deepEqual(
        [...positions.entries()].sort(),
        [
          ['event-0', 1],
          ['event-2', 3],
        ].sort(),
      );
    }));

  it('keeps one cosignature line per witness on a checkpoint', () =>
    withFixture(open, async ({ store }) => {
      await store.log.append(growth(0, 1, 0, 1));
      await store.log.addCosignature(1, 'w2.example', '— w2.example BBBB');
      await store.log.addCosignature(1, 'w1.example', '— w1.example AAAA');
      await store.log.addCosignature(1, 'w1.example', '— w1.example CCCC');
      assert.deepEqual(await store.log.cosignatures(1), ['— w1.example AAAA', '— w2.example BBBB']);
      assert.deepEqual(await store.log.cosignatures(2), []);
    }));
}
