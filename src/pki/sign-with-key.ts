/** Signing with a leaf key: on its signing threads when it has them, else on the calling thread. */
import { KeyObject } from 'node:crypto';
import { es384Signature } from './es384.js';
import type { SigningKey } from './signer.js';

/**
 * The ES384 signature (IEEE P1363, base64url) of the UTF-8 bytes of `prefix + rest` with `key`.
 * `prefix` is the start every input of this key shares (like a JWS header): the signing threads
 * keep it, so only `rest` crosses to them per call.
 */
export async function signWithKey(key: SigningKey, prefix: string, rest: string): Promise<string> {
  if (key.pool !== undefined) return key.pool.sign(key.privateKey, prefix, rest);
  return es384Signature(KeyObject.from(key.privateKey), prefix + rest);
}
