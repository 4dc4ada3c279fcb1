/**
 * Key names, key IDs and verifier keys of c2sp.org/signed-note: a key ID is the first four bytes
 * of SHA-256(name || 0x0A || type || public key), and a verifier key (vkey) is
 * `<name>+<hex key ID>+<base64(type || public key)>`.
 */
import { hash } from 'node:crypto';
import { decodeBase64, encodeBase64 } from './base64.js';
import { TlogError } from './tlog-error.js';

/** Signature type bytes erx uses (c2sp.org/signed-note §Signature types). */
export const SIGNATURE_TYPE = Object.freeze({ ed25519: 0x01, cosignatureV1: 0x04 } as const);

// Unicode White_Space code points (Go's unicode.IsSpace, which note names must not contain).
const SPACES: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** True for a key name: non-empty, no Unicode space, no `+`, no control character. */
export function isKeyName(name: string): boolean {
  if (name.length === 0) return false;
  for (const ch of name) {
    const code = ch.codePointAt(0)!;
    if (SPACES.has(code) || code === 0x2b || code < 0x20 || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
  }
  return true;
}

/** The key ID of a key: SHA-256(name || 0x0A || type || publicKey)[:4] as a big-endian uint32. */
export function noteKeyId(name: string, type: number, publicKey: Uint8Array): number {
  const input = Buffer.concat([Buffer.from(`${name}\n`, 'utf8'), Buffer.of(type), publicKey]);
  return hash('sha256', input, 'buffer').readUInt32BE(0);
}

/** A parsed verifier key. */
export interface VerifierKey {
  name: string;
  keyId: number;
  type: number;
  publicKey: Buffer;
}

/** The vkey text of a key: `<name>+<8 hex digits>+<base64(type || publicKey)>`. */
export function formatVerifierKey(name: string, type: number, publicKey: Uint8Array): string {
  if (!isKeyName(name)) throw new TlogError('malformed_key', 'key name');
  const id = noteKeyId(name, type, publicKey).toString(16).padStart(8, '0');
  return `${name}+${id}+${encodeBase64(Buffer.concat([Buffer.of(type), publicKey]))}`;
}

/** Parses a vkey and checks that its key ID is the one its name and key give. */
export function parseVerifierKey(vkey: string): VerifierKey {
  // The base64 key may itself hold `+`: split at the first two only.
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) throw new TlogError('malformed_key', 'not name+id+key');
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  const keyText = vkey.slice(second + 1);
  const key = decodeBase64(keyText);
  if (!isKeyName(name)) throw new TlogError('malformed_key', 'key name');
  if (idHex.length !== 8 || !isLowerHex(idHex)) throw new TlogError('malformed_key', 'key ID');
  if (key === undefined || key.length < 2) throw new TlogError('malformed_key', 'key base64');
  const type = key[0]!;
  const publicKey = key.subarray(1);
  const keyId = Number.parseInt(idHex, 16);
  if (keyId !== noteKeyId(name, type, publicKey)) {
    throw new TlogError('malformed_key', 'key ID does not match name and key');
  }
  return { name, keyId, type, publicKey };
}

function isLowerHex(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}
