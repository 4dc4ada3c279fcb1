/**
 * Contract: the transparency log's part of the store (`Store.log`). A growth is written only onto
 * the size it was computed from, so of two integrators racing from one size exactly one writes;
 * hashes, checkpoints and cosignatures read back as written; leaves are the events in feed order.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import type { LogAppend } from '../../src/store/log.js';
import type { Store } from '../../src/store/types.js';
import { decideNext, insertNew, withFixture } from './fixture.js';
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
  await store.sequenceFeed();
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

  it('reads the events as leaves in feed order, and their positions by id', () =>
    withFixture(open, async ({ store }) => {
      // Numbered one at a time: PostgreSQL numbers what one run finds in chain order, not commit order.
      const a = await insertNew(store);
      await numbered(store);
      const b = await insertNew(store);
      await numbered(store);
      const leaves = await store.log.readLeaves(0, 10);
      assert.deepEqual(
        leaves.map((l) => l.hash),
        [a.create.event.hash, b.create.event.hash],
      );
      assert.deepEqual(
        leaves.map((l) => l.position),
        [1, 2],
      );
      assert.deepEqual(
        leaves.map((l) => l.id),
        [a.create.event.id, b.create.event.id],
      );
      assert.deepEqual(await store.log.readLeaves(1, 10), [leaves[1]]);
      assert.deepEqual(await store.log.readLeaves(0, 0), []);
      const positions = await store.log.positions([
        b.create.event.id,
        'unknown',
        a.create.event.id,
      ]);
      assert.deepEqual(
        [...positions.entries()].sort(),
        [
          [a.create.event.id, 1],
          [b.create.event.id, 2],
        ].sort(),
      );
    }));

  it("answers a chain's newest event at a position a checkpoint of a size covers", () =>
    withFixture(open, async ({ store }) => {
      const a = await insertNew(store);
      await numbered(store);
      const b = await insertNew(store);
      await numbered(store);
      const next = await store.appendEvent(a.row.id, decideNext());
      await numbered(store);
      const positions = await store.log.positions([a.create.event.id, b.create.event.id, next.id]);
      assert.deepEqual(
        [
          positions.get(a.create.event.id),
          positions.get(b.create.event.id),
          positions.get(next.id),
        ],
        [1, 2, 3],
      );
      assert.deepEqual(await store.log.newestLogged(a.row.id, 3), {
        position: 3,
        id: next.id,
        hash: next.hash,
      });
      assert.deepEqual(await store.log.newestLogged(a.row.id, 2), {
        position: 1,
        id: a.create.event.id,
        hash: a.create.event.hash,
      });
      assert.equal(await store.log.newestLogged(a.row.id, 0), undefined);
      assert.equal(await store.log.newestLogged('no-such-prescription', 3), undefined);
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
