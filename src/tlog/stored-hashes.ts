/**
 * The hashes to store when leaf `n` is appended (Go's `tlog.StoredHashesForRecordHash`): its leaf
 * hash, then one hash per subtree it completes, to be written from `storedHashIndex(0, n)` on.
 */
import { HASH_SIZE, nodeHash } from './hash.js';
import { readHashes } from './hash-reader.js';
import type { HashReader } from './hash-reader.js';
import { storedHashIndex } from './stored-hash-index.js';
import { isIndex, shiftRight, trailingZeros } from './tree-math.js';
import { TlogError } from './tlog-error.js';

/**
 * The hashes that appending leaf `n` (0-based; the tree had `n` leaves) with `leafHash` adds, in
 * storage order from `storedHashIndex(0, n)`: at most 1 + log₂ n, just under two on average.
 * Reads one earlier hash per completed subtree from `reader`.
 */
export async function storedHashesForRecord(
  n: number,
  leafHash: Uint8Array,
  reader: HashReader,
): Promise<Buffer[]> {
  if (!isIndex(n)) throw new TlogError('out_of_range', 'leaf index is not a safe integer');
  if (leafHash.length !== HASH_SIZE) throw new TlogError('malformed_hash', 'leaf hash length');
  // Each trailing 1 bit of n completes a subtree, whose left sibling is already stored.
  const completed = trailingZeros(n + 1);
  const indexes: number[] = [];
  for (let i = completed - 1; i >= 0; i--) indexes.push(storedHashIndex(i, shiftRight(n, i) - 1));
  const siblings = await readHashes(reader, indexes);
  let h: Buffer = Buffer.from(leafHash);
  const hashes: Buffer[] = [h];
  for (let i = 0; i < completed; i++) {
    h = nodeHash(siblings[completed - 1 - i]!, h);
    hashes.push(h);
  }
  return hashes;
}
