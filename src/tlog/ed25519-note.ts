/**
 * Ed25519 note signatures (signature type 0x01 of c2sp.org/signed-note) with node:crypto: the
 * signature is plain Ed25519 over the note text.
 */
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { InstantNoteSigner, NoteVerifier } from './note.js';
import { formatVerifierKey, noteKeyId, parseVerifierKey, SIGNATURE_TYPE } from './note-key.js';
import { TlogError } from './tlog-error.js';

// DER prefixes of a bare 32-byte Ed25519 key as PKCS #8 (private) and SPKI (public).
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The Ed25519 private key of a 32-byte seed (RFC 8032 §5.1.5). */
export function ed25519PrivateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new TlogError('signing_key', 'seed is not 32 bytes');
  return createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** The Ed25519 public key object of 32 raw bytes. */
export function ed25519PublicKey(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new TlogError('malformed_key', 'Ed25519 key is not 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** The 32 raw bytes of an Ed25519 public (or private) key object. */
export function ed25519RawPublicKey(key: KeyObject): Buffer {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  if (pub.asymmetricKeyType !== 'ed25519') throw new TlogError('signing_key', 'not Ed25519');
  return pub.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}

/** A note signer of type 0x01 for `name` with an Ed25519 private key. */
export function ed25519NoteSigner(name: string, privateKey: KeyObject): InstantNoteSigner {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TlogError('signing_key', 'not an Ed25519 private key');
  }
  const keyId = noteKeyId(name, SIGNATURE_TYPE.ed25519, ed25519RawPublicKey(privateKey));
  return { name, keyId, sign: (text) => sign(null, text, privateKey) };
}

/** The vkey of an Ed25519 note key (type 0x01). */
export function ed25519VerifierKey(name: string, key: KeyObject): string {
  return formatVerifierKey(name, SIGNATURE_TYPE.ed25519, ed25519RawPublicKey(key));
}

/** A note verifier of a type 0x01 vkey; throws `malformed_key` for any other. */
export function ed25519NoteVerifier(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.type !== SIGNATURE_TYPE.ed25519) throw new TlogError('malformed_key', 'not type 0x01');
  const publicKey = ed25519PublicKey(key.publicKey);
  return {
    name: key.name,
    keyId: key.keyId,
    verify: (text, signature) =>
      signature.length === 64 && verify(null, text, publicKey, signature),
  };
}
