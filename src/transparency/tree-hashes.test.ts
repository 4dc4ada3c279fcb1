import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LruCache } from '../lru-cache.js';
import type { LogStore } from '../store/log.js';
import { TreeHashes } from './tree-hashes.js';

/** A store of the hashes 0 .. `count` - 1 (hash i is 32 bytes of i) that records its reads. */
function storeOf(count: number): { log: LogStore; reads: number[][] } {
  const reads: number[][] = [];
  const readHashes = async (indexes: readonly number[]): Promise<Uint8Array[]> => {
    reads.push([...indexes]);
    return indexes.map((i) => {
      if (i >= count) throw new Error(`log hash ${i} is not stored`);
      return Buffer.alloc(32, i);
    });
  };
  return { log: { readHashes } as unknown as LogStore, reads };
}

const byte = (hashes: readonly Uint8Array[]): number[] => hashes.map((h) => h[0]!);

describe('TreeHashes', () => {
  test('reads what it does not hold once, and answers it from memory after', async () => {
    const { log, reads } = storeOf(10);
    const hashes = new TreeHashes(log, new LruCache(1 << 15));
    assert.deepEqual(byte(await hashes.read([3, 1, 3])), [3, 1, 3]);
    assert.deepEqual(byte(await hashes.read([1, 3])), [1, 3]);
    assert.deepEqual(reads, [[3, 1]]);
  });

  test('reads everything asked for in one turn in one query', async () => {
    const { log, reads } = storeOf(10);
    const hashes = new TreeHashes(log, new LruCache(1 << 15));
    const answers = await Promise.all([hashes.read([1, 2]), hashes.read([2, 5]), hashes.read([7])]);
    assert.deepEqual(answers.map(byte), [[1, 2], [2, 5], [7]]);
    assert.deepEqual(reads, [[1, 2, 5, 7]]);
  });

  test('a hash the store lacks fails its reader only', async () => {
    const { log } = storeOf(10);
    const hashes = new TreeHashes(log, new LruCache(1 << 15));
    const [good, bad] = await Promise.allSettled([hashes.read([4]), hashes.read([4, 12])]);
    assert.deepEqual(good.status === 'fulfilled' && byte(good.value), [4]);
    assert.equal(bad.status, 'rejected');
  });

  test("answers a growth's hashes without reading them", async () => {
    const { log, reads } = storeOf(0);
    const hashes = new TreeHashes(log, new LruCache(1 << 15));
    hashes.remember([
      { index: 0, hash: Buffer.alloc(32, 9) },
      { index: 1, hash: Buffer.alloc(32, 8) },
    ]);
    assert.deepEqual(byte(await hashes.read([1, 0])), [8, 9]);
    assert.deepEqual(reads, []);
  });

  test("keeps a growth's hash that is a view of a shared slab as 32 bytes of its own", async () => {
    const { log } = storeOf(0);
    const hashes = new TreeHashes(log, new LruCache(1 << 15));
    const view = Buffer.from(Buffer.alloc(32, 5));
    assert.ok(view.buffer.byteLength > 32, 'Buffer.from hands out a view of a slab');
    hashes.remember([{ index: 0, hash: view }]);
    const [kept] = await hashes.read([0]);
    assert.equal(kept!.buffer.byteLength, 32);
    assert.deepEqual(byte([kept!]), [5]);
  });

  test('holds at most its capacity, keeping what is used again', async () => {
    const { log, reads } = storeOf(100);
    // Room for two: 0 and 1 fill it; 0, used again, stays when 2 comes and 1 goes.
    const hashes = new TreeHashes(log, new LruCache(2));
    await hashes.read([0, 1]);
    await hashes.read([0]);
    await hashes.read([2]);
    reads.length = 0;
    assert.deepEqual(byte(await hashes.read([0, 2])), [0, 2]);
    assert.deepEqual(reads, []);
    assert.deepEqual(byte(await hashes.read([1])), [1]);
    assert.deepEqual(reads, [[1]]);
  });
});
