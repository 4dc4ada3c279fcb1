/**
 * Verification of a consistency proof (RFC 9162 §2.1.4.2): the tree of `newSize` leaves and
 * `newRoot` extends the tree of `oldSize` leaves and `oldRoot`. Malformed input of any kind is a
 * failed check, not a throw. A proof from the empty tree proves nothing and is refused.
 */
import { hashesEqual as equal, isHash, nodeHashWith, nodeScratch } from './hash.js';
import { isIndex, largestPowerOfTwo, shiftRight } from './tree-math.js';

/** True when `proof` shows that the tree (`newSize`, `newRoot`) extends (`oldSize`, `oldRoot`). */
export function checkConsistency(
  proof: readonly Uint8Array[],
  newSize: number,
  newRoot: Uint8Array,
  oldSize: number,
  oldRoot: Uint8Array,
): boolean {
  if (!isIndex(oldSize) || !isIndex(newSize) || oldSize === 0 || oldSize > newSize) return false;
  if (!isHash(oldRoot) || !isHash(newRoot) || !proof.every(isHash)) return false;
  if (oldSize === newSize) return proof.length === 0 && equal(oldRoot, newRoot);
  if (proof.length === 0) return false;
  // When the old tree is a complete subtree its root is the proof's implicit first node.
  const isPowerOfTwo = largestPowerOfTwo(oldSize).size === oldSize;
  const path = isPowerOfTwo ? [oldRoot, ...proof] : proof;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = shiftRight(fn, 1);
    sn = shiftRight(sn, 1);
  }
  const scratch = nodeScratch();
  let fr: Uint8Array = path[0]!;
  let sr: Uint8Array = path[0]!;
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHashWith(scratch, c, fr);
      sr = nodeHashWith(scratch, c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = shiftRight(fn, 1);
        sn = shiftRight(sn, 1);
      }
    } else {
      sr = nodeHashWith(scratch, sr, c);
    }
    fn = shiftRight(fn, 1);
    sn = shiftRight(sn, 1);
  }
  return sn === 0 && equal(fr, oldRoot) && equal(sr, newRoot);
}
