/**
 * The event signature (SPEC.md §7): compact JWS (RFC 7515 §7.1), protected header exactly
 * `{"alg":"ES384","x5c":[leaf, root]}`, payload the event hash as UTF-8 text.
 *
 * The signature itself comes from the key's signing threads (`signWithKey`) and is checked with
 * node:crypto too (`jwsSignatureHolds`); jose, an implementation erx did not write, agrees with
 * both in `jws-signature.test.ts`.
 */
import { signWithKey } from '../pki/index.js';
import type { SigningKey } from '../pki/index.js';

/** The only JWS algorithm of the ledger. */
export const LEDGER_JWS_ALG = 'ES384';

/** The protected header of `key`'s signatures, encoded (a few µs: no need to remember it). */
function protectedHeader(key: SigningKey): string {
  const json = JSON.stringify({ alg: LEDGER_JWS_ALG, x5c: [...key.x5c] });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** Signs `hash` with a leaf key; the header carries the leaf and root certificates. */
export async function signEventHash(hash: string, key: SigningKey): Promise<string> {
  const header = `${protectedHeader(key)}.`;
  const payload = Buffer.from(hash, 'utf8').toString('base64url');
  return `${header}${payload}.${await signWithKey(key, header, payload)}`;
}
