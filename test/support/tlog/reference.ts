/**
 * RFC 6962 §2.1 written out from its recursive definitions (MTH, PATH, PROOF), over leaf data
 * held in memory: the reference the stored-hash implementation is compared with.
 */
import { createHash } from 'node:crypto';

function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

/** The largest power of two less than n (n > 1). */
function k(n: number): number {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
}

/** MTH(D[n]). */
export function mth(leaves: readonly Uint8Array[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return sha256(Buffer.of(0), leaves[0]!);
  const split = k(leaves.length);
  return sha256(Buffer.of(1), mth(leaves.slice(0, split)), mth(leaves.slice(split)));
}

/** PATH(m, D[n]). */
export function path(m: number, leaves: readonly Uint8Array[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const split = k(leaves.length);
  if (m < split) return [...path(m, leaves.slice(0, split)), mth(leaves.slice(split))];
  return [...path(m - split, leaves.slice(split)), mth(leaves.slice(0, split))];
}

function subproof(m: number, leaves: readonly Uint8Array[], b: boolean): Buffer[] {
  const n = leaves.length;
  if (m === n) return b ? [] : [mth(leaves)];
  const split = k(n);
  if (m <= split) return [...subproof(m, leaves.slice(0, split), b), mth(leaves.slice(split))];
  return [...subproof(m - split, leaves.slice(split), false), mth(leaves.slice(0, split))];
}

/** PROOF(m, D[n]). */
export function consistencyProof(m: number, leaves: readonly Uint8Array[]): Buffer[] {
  return subproof(m, leaves, true);
}
