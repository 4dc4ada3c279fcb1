/**
 * The consistency proof (RFC 6962 §2.1.2, RFC 9162 §2.1.4) that the tree of `newSize` leaves
 * extends the tree of `oldSize` leaves, from the stored hashes (Go's `tlog.ProveTree`).
 */
import { readHashes } from './hash-reader.js';
import type { HashReader } from './hash-reader.js';
import { subtreeHash, subtreeIndexes } from './subtree.js';
import { isIndex, splitPoint } from './tree-math.js';
import { TlogError } from './tlog-error.js';

/** Storage indexes the sub-proof for [lo, hi) reads, in the order it uses them. */
function proofIndexes(lo: number, hi: number, old: number, need: number[]): number[] {
  if (old === hi) return lo === 0 ? need : subtreeIndexes(lo, hi, need);
  const k = splitPoint(hi - lo);
  if (old <= lo + k) {
    proofIndexes(lo, lo + k, old, need);
    subtreeIndexes(lo + k, hi, need);
  } else {
    subtreeIndexes(lo, lo + k, need);
    proofIndexes(lo + k, hi, old, need);
  }
  return need;
}

/** Builds the sub-proof for [lo, hi); returns the position after the hashes used. */
function buildProof(
  lo: number,
  hi: number,
  old: number,
  hashes: readonly Uint8Array[],
  at: number,
  proof: Buffer[],
): number {
  if (old === hi) {
    // The old tree itself needs no hash: the verifier has its root.
    if (lo === 0) return at;
    const whole = subtreeHash(lo, hi, hashes, at);
    proof.push(Buffer.from(whole.hash));
    return whole.next;
  }
  const k = splitPoint(hi - lo);
  if (old <= lo + k) {
    at = buildProof(lo, lo + k, old, hashes, at, proof);
    const right = subtreeHash(lo + k, hi, hashes, at);
    proof.push(Buffer.from(right.hash));
    return right.next;
  }
  const left = subtreeHash(lo, lo + k, hashes, at);
  at = buildProof(lo + k, hi, old, hashes, left.next, proof);
  proof.push(Buffer.from(left.hash));
  return at;
}

/** The hashes proving that the tree of `newSize` leaves extends that of `oldSize` (1 ≤ old ≤ new). */
export async function proveConsistency(
  newSize: number,
  oldSize: number,
  reader: HashReader,
): Promise<Buffer[]> {
  if (!isIndex(newSize) || !isIndex(oldSize) || oldSize < 1 || oldSize > newSize) {
    throw new TlogError('out_of_range', `no consistency proof from ${oldSize} to ${newSize}`);
  }
  const hashes = await readHashes(reader, proofIndexes(0, newSize, oldSize, []));
  const proof: Buffer[] = [];
  buildProof(0, newSize, oldSize, hashes, 0, proof);
  return proof;
}
