import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryTree } from '../../test/support/tlog/memory-tree.js';
import { Reference } from '../../test/support/tlog/reference.js';
import { checkConsistency } from './check-consistency.js';
import { checkInclusion } from './check-inclusion.js';
import { eventLeaf, eventLeafHash, leafHash } from './hash.js';
import { proveConsistency } from './prove-consistency.js';
import { proveInclusion } from './prove-inclusion.js';
import { storedHashesForRecords } from './stored-hashes-batch.js';
import { splitStoredHashIndex, storedHashCount, storedHashIndex } from './stored-hash-index.js';
import { treeHash } from './tree-hash.js';
import { TlogError } from './tlog-error.js';

const data = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`leaf ${i}`));

function flip(hash: Buffer, bit = 0): Buffer {
  const copy = Buffer.from(hash);
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
}

test('the stored layout: counts, indexes and their inverse agree with the hashes appended', async () => {
  const tree = await memoryTree(300);
  assert.equal(storedHashCount(300), tree.hashes.length);
  for (let n = 0; n <= 300; n++) assert.equal(storedHashIndex(0, n) >= storedHashCount(n), true);
  for (let index = 0; index < tree.hashes.length; index++) {
    const { level, n } = splitStoredHashIndex(index);
    assert.equal(storedHashIndex(level, n), index);
  }
});

test('a batch append stores the same hashes as leaf-by-leaf appends, reading only stored ones', async () => {
  const whole = await memoryTree(300);
  for (const [start, count] of [
    [0, 300],
    [1, 1],
    [7, 93],
    [255, 2],
    [256, 44],
    [100, 200],
  ] as const) {
    const prefix = await memoryTree(start);
    const leaves = data(start + count)
      .slice(start)
      .map((d) => leafHash(d));
    const added = await storedHashesForRecords(start, leaves, prefix.reader);
    assert.equal(prefix.hashes.length, storedHashIndex(0, start));
    assert.deepEqual(
      [...prefix.hashes, ...added],
      whole.hashes.slice(0, storedHashCount(start + count)),
      `${start} + ${count}`,
    );
  }
});

test('tree heads from the stored hashes equal RFC 6962 MTH for every size up to 300', async () => {
  const tree = await memoryTree(300);
  const ref = new Reference(data(300));
  for (let size = 0; size <= 300; size++) {
    tree.reads.length = 0;
    assert.deepEqual(await treeHash(size, tree.reader), ref.mth(0, size), `size ${size}`);
    const read = tree.reads.flat().length;
    assert.ok(read <= 1 + Math.log2(Math.max(size, 1)), `size ${size} read ${read} hashes`);
  }
});

test('inclusion proofs equal RFC 6962 PATH and verify, for every leaf of trees 1..64 and 300', async () => {
  const tree = await memoryTree(300);
  const leaves = data(300);
  const ref = new Reference(leaves);
  for (const size of [...Array.from({ length: 64 }, (_, i) => i + 1), 300]) {
    const root = ref.mth(0, size);
    for (let index = 0; index < size; index++) {
      tree.reads.length = 0;
      const proof = await proveInclusion(size, index, tree.reader);
      assert.ok(tree.reads.flat().length <= 2 * Math.ceil(Math.log2(size)) + 1);
      assert.deepEqual(proof, ref.path(index, size), `${index} in ${size}`);
      assert.equal(checkInclusion(proof, size, root, index, leafHash(leaves[index]!)), true);
    }
  }
});

test('a tampered leaf, index, size, root or proof fails inclusion', async () => {
  const tree = await memoryTree(64);
  const leaves = data(64);
  const ref = new Reference(leaves);
  for (const [size, index] of [
    [64, 0],
    [63, 62],
    [37, 20],
    [2, 1],
  ] as const) {
    const root = ref.mth(0, size);
    const hash = leafHash(leaves[index]!);
    const proof = await proveInclusion(size, index, tree.reader);
    assert.equal(checkInclusion(proof, size, root, index, flip(hash)), false);
    assert.equal(checkInclusion(proof, size, root, index ^ 1, hash), false);
    // (The size itself is bound by the signed checkpoint: a proof for n often also fits n + 1.)
    assert.equal(checkInclusion(proof, size * 2, root, index, hash), false);
    assert.equal(checkInclusion(proof, size, flip(root, 255), index, hash), false);
    assert.equal(checkInclusion(proof.slice(0, -1), size, root, index, hash), false);
    assert.equal(checkInclusion([...proof, root], size, root, index, hash), false);
    for (let i = 0; i < proof.length; i++) {
      const bad = proof.map((p, j) => (j === i ? flip(p, 100) : p));
      assert.equal(checkInclusion(bad, size, root, index, hash), false, `proof[${i}]`);
    }
  }
});

test('consistency proofs equal RFC 6962 PROOF and verify between every pair of sizes 1..64', async () => {
  const tree = await memoryTree(64);
  const ref = new Reference(data(64));
  const roots = Array.from({ length: 65 }, (_, n) => ref.mth(0, n));
  for (let newSize = 1; newSize <= 64; newSize++) {
    for (let oldSize = 1; oldSize <= newSize; oldSize++) {
      const proof = await proveConsistency(newSize, oldSize, tree.reader);
      assert.deepEqual(proof, ref.proof(oldSize, newSize));
      const ok = checkConsistency(proof, newSize, roots[newSize]!, oldSize, roots[oldSize]!);
      assert.equal(ok, true, `${oldSize} -> ${newSize}`);
    }
  }
});

test('truncated, extended, bit-flipped and forked consistency proofs fail', async () => {
  const tree = await memoryTree(64);
  const leaves = data(64);
  // A fork: the same sizes, but leaf 0 differs.
  const forked = [Buffer.from('forged'), ...leaves.slice(1)];
  const ref = new Reference(leaves);
  const forkedRef = new Reference(forked);
  const roots = Array.from({ length: 65 }, (_, n) => ref.mth(0, n));
  const forkedRoots = Array.from({ length: 65 }, (_, n) => forkedRef.mth(0, n));
  for (let newSize = 2; newSize <= 64; newSize++) {
    for (let oldSize = 1; oldSize < newSize; oldSize++) {
      const oldRoot = roots[oldSize]!;
      const newRoot = roots[newSize]!;
      const proof = await proveConsistency(newSize, oldSize, tree.reader);
      const check = (p: Buffer[], n = newSize, nr = newRoot, o = oldSize, or = oldRoot) =>
        checkConsistency(p, n, nr, o, or);
      assert.equal(check(proof.slice(0, -1)), false);
      assert.equal(check(proof.slice(1)), false);
      assert.equal(check([...proof, newRoot]), false);
      assert.equal(check(proof, newSize, newRoot, oldSize, forkedRoots[oldSize]), false);
      assert.equal(check(proof, newSize, forkedRoots[newSize]), false);
      assert.equal(check(proof, newSize, oldRoot, oldSize, newRoot), false);
      if (oldSize + 1 < newSize) assert.equal(check(proof, newSize, newRoot, oldSize + 1), false);
      for (let i = 0; i < proof.length; i++) {
        assert.equal(check(proof.map((p, j) => (j === i ? flip(p, 7) : p))), false);
      }
    }
  }
});

test('proofs outside the tree are refused with out_of_range', async () => {
  const tree = await memoryTree(8);
  for (const call of [
    () => proveInclusion(8, 8, tree.reader),
    () => proveInclusion(0, 0, tree.reader),
    () => proveConsistency(8, 0, tree.reader),
    () => proveConsistency(4, 5, tree.reader),
    () => treeHash(-1, tree.reader),
  ]) {
    await assert.rejects(call, (e) => e instanceof TlogError && e.reason === 'out_of_range');
  }
});

test('a hash reader that answers too few or malformed hashes is an internal hash_reader error', async () => {
  const short = async (indexes: readonly number[]) => indexes.slice(1).map(() => Buffer.alloc(32));
  const long = async (indexes: readonly number[]) => indexes.map(() => Buffer.alloc(31));
  for (const reader of [short, long]) {
    await assert.rejects(treeHash(5, reader), (e) => {
      return e instanceof TlogError && e.reason === 'hash_reader' && e.code === 'internal_error';
    });
  }
});

test('an event leaf is the raw 32 bytes of the hex event hash; other text is refused', () => {
  const hex = 'ab'.repeat(32);
  assert.deepEqual(eventLeaf(hex), Buffer.alloc(32, 0xab));
  assert.deepEqual(eventLeafHash(hex), leafHash(Buffer.alloc(32, 0xab)));
  for (const bad of ['AB'.repeat(32), 'ab'.repeat(31), `${'ab'.repeat(32)}00`]) {
    assert.throws(
      () => eventLeaf(bad),
      (e) => e instanceof TlogError && e.reason === 'malformed_hash',
    );
  }
});
