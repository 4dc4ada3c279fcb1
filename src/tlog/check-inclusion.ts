/**
 * Verification of an inclusion proof (RFC 9162 §2.1.3.2), iterative and allocation-light: it runs
 * for every receipt a verifier checks. Malformed input of any kind is a failed check, not a throw.
 */
import { hashesEqual, isHash, nodeHashWith, nodeScratch } from './hash.js';
import { isIndex, shiftRight } from './tree-math.js';

/**
 * The root that `proof` leads to from leaf `index` with `leafHash` in a tree of `size` leaves, or
 * `undefined` when the proof cannot be one for that position (wrong length, hashes not 32 bytes).
 */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array | undefined {
  if (!isIndex(index) || !isIndex(size) || index >= size || !isHash(leafHash)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leafHash;
  const scratch = nodeScratch();
  for (const p of proof) {
    if (sn === 0 || !isHash(p)) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHashWith(scratch, p, r);
      // A left sibling on the right border: skip the levels where this node has no sibling.
      while (fn % 2 === 0 && fn !== 0) {
        fn = shiftRight(fn, 1);
        sn = shiftRight(sn, 1);
      }
    } else {
      r = nodeHashWith(scratch, r, p);
    }
    fn = shiftRight(fn, 1);
    sn = shiftRight(sn, 1);
  }
  return sn === 0 ? r : undefined;
}

/** True when `proof` shows leaf `index` with `leafHash` in the tree of `size` leaves and `root`. */
export function checkInclusion(
  proof: readonly Uint8Array[],
  size: number,
  root: Uint8Array,
  index: number,
  leafHash: Uint8Array,
): boolean {
  const computed = rootFromInclusionProof(index, size, leafHash, proof);
  return computed !== undefined && isHash(root) && hashesEqual(computed, root);
}
