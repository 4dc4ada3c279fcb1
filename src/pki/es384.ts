/** The one ES384 signing operation of erx, shared by the signing threads and the calling thread. */
import { sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** The ES384 signature (IEEE P1363, as JWS wants it; base64url) of the UTF-8 bytes of `input`. */
export function es384Signature(key: KeyObject, input: string): string {
  return sign('sha384', Buffer.from(input, 'utf8'), {
    key,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
}
