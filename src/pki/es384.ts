/**
 * The one ES384 signing operation of erx, shared by the signing threads and the calling thread,
 * and its check.
 */
import { sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** Bytes of an ES384 signature in IEEE P1363 form (r and s, 48 bytes each). */
const ES384_SIGNATURE_BYTES = 96;

/** The ES384 signature (IEEE P1363, as JWS wants it; base64url) of the UTF-8 bytes of `input`. */
export function es384Signature(key: KeyObject, input: string): string {
  return sign('sha384', Buffer.from(input, 'utf8'), {
    key,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
}

/**
 * Whether `signature` (base64url, IEEE P1363) is an ES384 signature of the UTF-8 bytes of `input`
 * under the public key `key`.
 */
export function es384SignatureHolds(key: KeyObject, input: string, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== ES384_SIGNATURE_BYTES) return false;
  try {
    return verify('sha384', Buffer.from(input, 'utf8'), { key, dsaEncoding: 'ieee-p1363' }, bytes);
  } catch {
    return false;
  }
}
