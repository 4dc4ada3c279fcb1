/**
 * When a link-signing key may vouch for a link: the key must have been current at the link's
 * issue time `t` (SPEC.md §3: "old public keys stay trusted for verification of links issued
 * while they were current").
 */

/**
 * Seconds of tolerance on both ends of a key's window. Instances sharing a ring may disagree on the
 * time by a little, and a signer adopts a rotation made by another process on its next signature,
 * not at the very instant of the rotation.
 */
export const CLOCK_SKEW_SECONDS = 300;

/** The validity window of a key: created at `createdAt`, retired at `retiredAt` (null: current). */
export interface KeyWindow {
  readonly createdAt: number;
  readonly retiredAt: number | null;
}

/** True when a key with this window was current at `t` (unix seconds), within the skew allowance. */
export function wasCurrentAt(key: KeyWindow, t: number): boolean {
  if (t < key.createdAt - CLOCK_SKEW_SECONDS) return false;
  return key.retiredAt === null || t <= key.retiredAt + CLOCK_SKEW_SECONDS;
}
