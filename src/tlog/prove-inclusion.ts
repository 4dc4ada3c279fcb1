/**
 * The inclusion proof (RFC 6962 §2.1.1 audit path, RFC 9162 §2.1.3) of leaf `index` in the tree
 * of `size` leaves, from the stored hashes (Go's `tlog.ProveRecord`): siblings from the leaf up.
 */
import { readHashes } from './hash-reader.js';
import type { HashReader } from './hash-reader.js';
import { subtreeHash, subtreeIndexes } from './subtree.js';
import { isIndex, splitPoint } from './tree-math.js';
import { TlogError } from './tlog-error.js';

/** Storage indexes the proof for `index` in [lo, hi) reads, in the order the proof uses them. */
function proofIndexes(lo: number, hi: number, index: number, need: number[]): number[] {
  if (lo + 1 === hi) return need;
  const k = splitPoint(hi - lo);
  if (index < lo + k) {
    proofIndexes(lo, lo + k, index, need);
    subtreeIndexes(lo + k, hi, need);
  } else {
    subtreeIndexes(lo, lo + k, need);
    proofIndexes(lo + k, hi, index, need);
  }
  return need;
}

/** Builds the proof from the hashes read; returns it with the position after those used. */
function buildProof(
  lo: number,
  hi: number,
  index: number,
  hashes: readonly Uint8Array[],
  at: number,
  proof: Buffer[],
): number {
  if (lo + 1 === hi) return at;
  const k = splitPoint(hi - lo);
  if (index < lo + k) {
    at = buildProof(lo, lo + k, index, hashes, at, proof);
    const right = subtreeHash(lo + k, hi, hashes, at);
    proof.push(Buffer.from(right.hash));
    return right.next;
  }
  const left = subtreeHash(lo, lo + k, hashes, at);
  at = buildProof(lo + k, hi, index, hashes, left.next, proof);
  proof.push(Buffer.from(left.hash));
  return at;
}

/** The hashes proving that leaf `index` is in the tree of `size` leaves (0 ≤ index < size). */
export async function proveInclusion(
  size: number,
  index: number,
  reader: HashReader,
): Promise<Buffer[]> {
  if (!isIndex(size) || !isIndex(index) || index >= size) {
    throw new TlogError('out_of_range', `leaf ${index} is not in a tree of ${size}`);
  }
  const hashes = await readHashes(reader, proofIndexes(0, size, index, []));
  const proof: Buffer[] = [];
  buildProof(0, size, index, hashes, 0, proof);
  return proof;
}
