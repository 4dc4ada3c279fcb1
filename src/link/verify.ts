/**
 * Checking the Ed25519 signature `s` of a parsed link against the trusted link keys (SPEC.md §3):
 * only keys of the ring, and of those only the ones that were current at the link's `t`.
 */
import { verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { ParsedLink } from './parse.js';

/** The trusted public keys, selected by issue time (the `LinkKeyring` is one). */
export interface LinkVerificationKeys {
  /** Public keys that were current at `t` (unix seconds), within the clock-skew allowance. */
  keysCurrentAt(t: number): readonly KeyObject[];
}

const SIGNATURE = /^[0-9a-f]{128}$/;

/** True when the link's signature verifies under a key that was current at its issue time. */
export function verifyLinkSignature(parsed: ParsedLink, keys: LinkVerificationKeys): boolean {
  // `parsed` should come from parseLink; one assembled by hand must still be self-consistent, as
  // `issuedAt` picks the keys while `signedPart` is what the signature covers.
  if (!SIGNATURE.test(parsed.signatureHex)) return false;
  if (!parsed.signedPart.endsWith(`&t=${parsed.issuedAt}`)) return false;
  const data = Buffer.from(parsed.signedPart, 'utf8');
  const signature = Buffer.from(parsed.signatureHex, 'hex');
  return keys.keysCurrentAt(parsed.issuedAt).some((key) => verify(null, data, key, signature));
}
