import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { memoryTree } from '../../test/support/tlog/memory-tree.js';
import { checkConsistency } from './check-consistency.js';
import { checkInclusion } from './check-inclusion.js';
import { leafHash } from './hash.js';
import { proveConsistency } from './prove-consistency.js';
import { proveInclusion } from './prove-inclusion.js';
import { treeHash } from './tree-hash.js';

const SIZE = 3000;

test('for random sizes up to 3000, proofs from stored hashes verify and any flipped bit fails', async () => {
  const tree = await memoryTree(SIZE);
  const roots = new Map<number, Buffer>();
  const root = async (n: number) => {
    let r = roots.get(n);
    if (r === undefined) roots.set(n, (r = await treeHash(n, tree.reader)));
    return r;
  };
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: SIZE }),
      fc.integer({ min: 1, max: SIZE }),
      fc.nat(),
      fc.nat(),
      async (a, b, pick, bit) => {
        const [oldSize, newSize] = a <= b ? [a, b] : [b, a];
        const index = pick % newSize;
        const hash = leafHash(Buffer.from(`leaf ${index}`));
        const inclusion = await proveInclusion(newSize, index, tree.reader);
        assert.equal(checkInclusion(inclusion, newSize, await root(newSize), index, hash), true);
        const consistency = await proveConsistency(newSize, oldSize, tree.reader);
        const ok = checkConsistency(
          consistency,
          newSize,
          await root(newSize),
          oldSize,
          await root(oldSize),
        );
        assert.equal(ok, true);
        if (inclusion.length > 0) {
          const bad = inclusion.map((h) => Buffer.from(h));
          bad[bit % bad.length]![(bit >> 3) % 32]! ^= 1 << (bit & 7);
          assert.equal(checkInclusion(bad, newSize, await root(newSize), index, hash), false);
        }
        if (consistency.length > 0) {
          const bad = consistency.map((h) => Buffer.from(h));
          bad[bit % bad.length]![(bit >> 3) % 32]! ^= 1 << (bit & 7);
          const forged = checkConsistency(
            bad,
            newSize,
            await root(newSize),
            oldSize,
            await root(oldSize),
          );
          assert.equal(forged, false);
        }
      },
    ),
    { numRuns: 300 },
  );
});
