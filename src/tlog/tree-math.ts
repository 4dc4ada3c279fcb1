/**
 * Integer helpers for tree coordinates. Sizes and indexes are plain numbers (safe integers up to
 * 2^53), so JavaScript's 32-bit bit operators are never used on them.
 */

/** `n >> k` for a safe non-negative integer `n`. */
export function shiftRight(n: number, k: number): number {
  return Math.floor(n / 2 ** k);
}

/** Number of trailing zero bits of a positive safe integer (the lowest set bit's position). */
export function trailingZeros(n: number): number {
  let count = 0;
  while (n > 0 && n % 2 === 0) {
    n /= 2;
    count++;
  }
  return count;
}

/** The largest power of two that is less than `n` (`n` ≥ 2), as RFC 6962 §2.1 splits a tree. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The largest power of two that is at most `n` (`n` ≥ 1), with its exponent. */
export function largestPowerOfTwo(n: number): { size: number; level: number } {
  let size = 1;
  let level = 0;
  while (size * 2 <= n) {
    size *= 2;
    level++;
  }
  return { size, level };
}

/** True for a non-negative safe integer. */
export function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
