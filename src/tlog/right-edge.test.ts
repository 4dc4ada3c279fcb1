import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { memoryTree } from '../../test/support/tlog/memory-tree.js';
import { leafHash } from './hash.js';
import { readHashes } from './hash-reader.js';
import { RightEdge } from './right-edge.js';
import { storedHashIndex } from './stored-hash-index.js';
import { TlogError } from './tlog-error.js';
import { treeHash } from './tree-hash.js';

const SIZE = 600;

test('appending from a loaded edge stores what the stored-hash layout stores and roots as treeHash', async () => {
  const tree = await memoryTree(SIZE);
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: SIZE - 1 }),
      fc.integer({ min: 1, max: 40 }),
      async (from, count) => {
        const to = Math.min(SIZE, from + count);
        const edge = RightEdge.of(from, await readHashes(tree.reader, RightEdge.indexes(from)));
        assert.deepEqual(edge.root(), await treeHash(from, tree.reader));
        for (let n = from; n < to; n++) {
          const stored = edge.append(leafHash(Buffer.from(`leaf ${n}`)));
          const first = storedHashIndex(0, n);
          assert.deepEqual(stored, tree.hashes.slice(first, first + stored.length));
          assert.equal(first + stored.length, storedHashIndex(0, n + 1));
        }
        assert.equal(edge.size, to);
        assert.deepEqual(edge.root(), await treeHash(to, tree.reader));
      },
    ),
    { numRuns: 200 },
  );
});

test('an edge refuses hashes that do not fit its size, and a leaf hash of the wrong length', () => {
  assert.throws(() => RightEdge.of(3, [Buffer.alloc(32)]), TlogError);
  const edge = RightEdge.of(0, []);
  assert.throws(() => edge.append(Buffer.alloc(31)), TlogError);
  assert.equal(edge.size, 0);
});
