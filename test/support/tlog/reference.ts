/**
 * RFC 6962 §2.1 written out from its recursive definitions (MTH, PATH, PROOF), over leaf data
 * held in memory: the reference the stored-hash implementation is compared with. Subtree hashes
 * are memoized per reference object, by leaf range.
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

/** RFC 6962's functions over `leaves`, for ranges D[lo:hi]. */
export class Reference {
  private readonly memo = new Map<string, Buffer>();

  constructor(private readonly leaves: readonly Uint8Array[]) {}

  /** MTH(D[lo:hi]). */
  mth(lo: number, hi: number): Buffer {
    const key = `${lo}:${hi}`;
    let h = this.memo.get(key);
    if (h !== undefined) return h;
    if (hi === lo) h = sha256();
    else if (hi - lo === 1) h = sha256(Buffer.of(0), this.leaves[lo]!);
    else {
      const split = lo + k(hi - lo);
      h = sha256(Buffer.of(1), this.mth(lo, split), this.mth(split, hi));
    }
    this.memo.set(key, h);
    return h;
  }

  /** PATH(m, D[0:n]). */
  path(m: number, n: number, lo = 0): Buffer[] {
    if (n - lo <= 1) return [];
    const split = lo + k(n - lo);
    if (m < split) return [...this.path(m, split, lo), this.mth(split, n)];
    return [...this.path(m, n, split), this.mth(lo, split)];
  }

  /** PROOF(m, D[0:n]). */
  proof(m: number, n: number): Buffer[] {
    return this.subproof(m, 0, n, true);
  }

  private subproof(m: number, lo: number, hi: number, b: boolean): Buffer[] {
    if (m === hi) return b ? [] : [this.mth(lo, hi)];
    const split = lo + k(hi - lo);
    if (m <= split) return [...this.subproof(m, lo, split, b), this.mth(split, hi)];
    return [...this.subproof(m, split, hi, false), this.mth(lo, split)];
  }
}

/** MTH of all of `leaves` (no memo kept). */
export function mth(leaves: readonly Uint8Array[]): Buffer {
  return new Reference(leaves).mth(0, leaves.length);
}
