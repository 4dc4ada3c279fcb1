/**
 * Ed25519 checkpoint cosignatures, version 1 (c2sp.org/tlog-cosignature, signature type 0x04):
 * the witness signs `cosignature/v1\ntime <T>\n` followed by the checkpoint text, and the note
 * signature is the 8-byte big-endian timestamp T followed by the 64-byte Ed25519 signature.
 */
import { sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { ed25519PublicKey, ed25519RawPublicKey } from './ed25519-note.js';
import type { NoteSignature, NoteSigner, NoteVerifier } from './note.js';
import { formatVerifierKey, noteKeyId, parseVerifierKey, SIGNATURE_TYPE } from './note-key.js';
import { TlogError } from './tlog-error.js';
import { isIndex } from './tree-math.js';

const SIGNATURE_LENGTH = 8 + 64;

/** The message a v1 cosignature signs: header, time line and the whole checkpoint text. */
export function cosignatureMessage(checkpointText: Uint8Array | string, timestamp: number): Buffer {
  if (!isIndex(timestamp)) throw new TlogError('out_of_range', 'cosignature time');
  const text =
    typeof checkpointText === 'string' ? Buffer.from(checkpointText, 'utf8') : checkpointText;
  return Buffer.concat([Buffer.from(`cosignature/v1\ntime ${timestamp}\n`, 'utf8'), text]);
}

/** The POSIX time a v1 cosignature states, or `undefined` when it is not one (length, range). */
export function cosignatureTimestamp(signature: Uint8Array): number | undefined {
  if (signature.length !== SIGNATURE_LENGTH) return undefined;
  const t = Buffer.from(signature.buffer, signature.byteOffset, 8).readBigUInt64BE(0);
  // 2^63 - 1 is the spec's bound; a time past 2^53 s is no real time either.
  return t <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(t) : undefined;
}

/**
 * A cosigner (type 0x04) for `name` with an Ed25519 key; `now` gives the POSIX time in seconds
 * (injected so tests can fix it).
 */
export function ed25519Cosigner(
  name: string,
  privateKey: KeyObject,
  now: () => number = () => Math.floor(Date.now() / 1000),
): NoteSigner {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TlogError('signing_key', 'not an Ed25519 private key');
  }
  const keyId = noteKeyId(name, SIGNATURE_TYPE.cosignatureV1, ed25519RawPublicKey(privateKey));
  return {
    name,
    keyId,
    sign: (text) => {
      const timestamp = now();
      const out = Buffer.alloc(SIGNATURE_LENGTH);
      out.writeBigUInt64BE(BigInt(timestamp), 0);
      out.set(sign(null, cosignatureMessage(text, timestamp), privateKey), 8);
      return out;
    },
  };
}

/** The vkey of a cosigner key (type 0x04). */
export function cosignerVerifierKey(name: string, key: KeyObject): string {
  return formatVerifierKey(name, SIGNATURE_TYPE.cosignatureV1, ed25519RawPublicKey(key));
}

/** A note verifier for a type 0x04 vkey; throws `malformed_key` for any other. */
export function ed25519CosignatureVerifier(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.type !== SIGNATURE_TYPE.cosignatureV1) throw new TlogError('malformed_key', 'not 0x04');
  const publicKey = ed25519PublicKey(key.publicKey);
  return {
    name: key.name,
    keyId: key.keyId,
    verify: (text, signature) => {
      const timestamp = cosignatureTimestamp(signature);
      if (timestamp === undefined) return false;
      return verify(null, cosignatureMessage(text, timestamp), publicKey, signature.subarray(8));
    },
  };
}

/** The time of each verified cosignature among `signatures` by one of `cosigners`, by name. */
export function cosignatureTimes(
  signatures: readonly NoteSignature[],
  cosigners: readonly NoteVerifier[],
): Map<string, number> {
  const times = new Map<string, number>();
  for (const s of signatures) {
    if (!cosigners.some((c) => c.name === s.name && c.keyId === s.keyId)) continue;
    const t = cosignatureTimestamp(s.signature);
    if (t !== undefined) times.set(s.name, t);
  }
  return times;
}
