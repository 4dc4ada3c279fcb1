/**
 * The storage layout of golang.org/x/mod/sumdb/tlog (after Crosby and Wallach, "Efficient Data
 * Structures for Tamper-Evident Logging", §3.3): every hash of the tree, leaf or interior, gets one
 * dense index, in the order they come into existence as leaves are appended. Appending leaf n
 * writes its leaf hash and the hashes of the subtrees it completes, so a store keeps one
 * append-only sequence and a proof reads O(log n) of its entries.
 */
import { shiftRight, trailingZeros } from './tree-math.js';

/** Where the hash of node `n` at `level` (0 = leaves) is stored; Go's `tlog.StoredHashIndex`. */
export function storedHashIndex(level: number, n: number): number {
  // Level L's n'th hash is written right after level L+1's 2n+1'th hash: go down to level 0.
  for (let l = level; l > 0; l--) n = 2 * n + 1;
  // Level 0's n'th hash is at n + n/2 + n/4 + ... (each earlier subtree adds its hashes).
  let i = 0;
  for (; n > 0; n = shiftRight(n, 1)) i += n;
  return i + level;
}

/** The inverse of {@link storedHashIndex}; Go's `tlog.SplitStoredHashIndex`. */
export function splitStoredHashIndex(index: number): { level: number; n: number } {
  // storedHashIndex(0, n) < 2n, so the leaf written last before `index` is in [index/2, ...].
  let n = shiftRight(index, 1);
  let indexN = storedHashIndex(0, n);
  for (;;) {
    // Appending leaf n+1 writes 1 + trailingZeros(n+1) hashes.
    const next = indexN + 1 + trailingZeros(n + 1);
    if (next > index) break;
    n++;
    indexN = next;
  }
  const level = index - indexN;
  return { level, n: shiftRight(n, level) };
}

/** How many hashes are stored for a tree of `size` leaves; Go's `tlog.StoredHashCount`. */
export function storedHashCount(size: number): number {
  if (size === 0) return 0;
  let count = storedHashIndex(0, size - 1) + 1;
  // The last leaf also completes a subtree for each trailing 1 bit of its index.
  for (let i = size - 1; i % 2 === 1; i = shiftRight(i, 1)) count++;
  return count;
}
