/**
 * The root hash of the tree of the first `size` leaves, from the stored hashes (Go's
 * `tlog.TreeHash`): one read of at most 1 + log₂ size hashes.
 */
import { emptyTreeHash } from './hash.js';
import { readHashes } from './hash-reader.js';
import type { HashReader } from './hash-reader.js';
import { subtreeHash, subtreeIndexes } from './subtree.js';
import { isIndex } from './tree-math.js';
import { TlogError } from './tlog-error.js';

/** The RFC 6962 root of the first `size` leaves; the empty tree's is SHA-256 of no bytes. */
export async function treeHash(size: number, reader: HashReader): Promise<Buffer> {
  if (!isIndex(size)) throw new TlogError('out_of_range', 'tree size is not a safe integer');
  if (size === 0) return emptyTreeHash();
  const hashes = await readHashes(reader, subtreeIndexes(0, size, []));
  return Buffer.from(subtreeHash(0, size, hashes, 0).hash);
}
