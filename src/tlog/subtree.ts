/**
 * The stored hashes that make up the subtree of leaves [lo, hi) (RFC 6962 §2.1): the largest
 * complete subtrees from the left, each one stored hash, folded from the right. Internal to the
 * tree operations of this folder (Go's `subTreeIndex` and `subTreeHash`).
 */
import { nodeHash } from './hash.js';
import { storedHashIndex } from './stored-hash-index.js';
import { largestPowerOfTwo } from './tree-math.js';

/** Appends to `need` the storage indexes of the complete subtrees covering [lo, hi). */
export function subtreeIndexes(lo: number, hi: number, need: number[]): number[] {
  while (lo < hi) {
    const { size, level } = largestPowerOfTwo(hi - lo);
    // lo is a multiple of size here: the ranges this folder asks for are aligned.
    need.push(storedHashIndex(level, lo / size));
    lo += size;
  }
  return need;
}

/** How many stored hashes {@link subtreeIndexes} lists for [lo, hi). */
export function subtreeCount(lo: number, hi: number): number {
  let count = 0;
  while (lo < hi) {
    lo += largestPowerOfTwo(hi - lo).size;
    count++;
  }
  return count;
}

/**
 * The hash of [lo, hi) from the hashes at `hashes[at...]` (as {@link subtreeIndexes} listed
 * them); returns it with the position after the hashes used.
 */
export function subtreeHash(
  lo: number,
  hi: number,
  hashes: readonly Uint8Array[],
  at: number,
): { hash: Uint8Array; next: number } {
  const count = subtreeCount(lo, hi);
  let h = hashes[at + count - 1]!;
  for (let i = count - 2; i >= 0; i--) h = nodeHash(hashes[at + i]!, h);
  return { hash: h, next: at + count };
}
