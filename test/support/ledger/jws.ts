/**
 * Test support: compact JWS built by hand, so a test can put anything into the header, the
 * payload or the signature bytes (jose would refuse to produce most of them).
 */
import type { webcrypto } from 'node:crypto';

/** base64url of UTF-8 text or raw bytes. */
export function b64url(data: string | Uint8Array): string {
  return Buffer.from(typeof data === 'string' ? Buffer.from(data, 'utf8') : data).toString(
    'base64url',
  );
}

/** Signs `header.payload` (both given as text) with `key` and the given WebCrypto parameters. */
export async function signCompact(
  headerText: string,
  payload: string,
  key: webcrypto.CryptoKey,
  params: webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams | webcrypto.HmacImportParams,
): Promise<string> {
  const input = `${b64url(headerText)}.${b64url(payload)}`;
  const signature = await crypto.subtle.sign(params, key, Buffer.from(input, 'ascii'));
  return `${input}.${b64url(new Uint8Array(signature))}`;
}

/** Replaces one of the three segments of a compact JWS. */
export function replaceSegment(jws: string, index: 0 | 1 | 2, segment: string): string {
  const parts = jws.split('.');
  parts[index] = segment;
  return parts.join('.');
}

/** Decodes one base64url segment to bytes. */
export function segmentBytes(jws: string, index: 0 | 1 | 2): Uint8Array {
  return new Uint8Array(Buffer.from(jws.split('.')[index] ?? '', 'base64url'));
}

/** Flips one bit of a decoded segment and re-encodes it. */
export function flipBit(jws: string, index: 0 | 1 | 2, byte: number, bit: number): string {
  const bytes = segmentBytes(jws, index);
  bytes[byte] = (bytes[byte] ?? 0) ^ (1 << bit);
  return replaceSegment(jws, index, b64url(bytes));
}

/** A protected header as text, in the ledger's own member order unless extra members follow. */
export function headerText(
  x5c: readonly string[],
  extra: Record<string, unknown> = {},
  alg = 'ES384',
): string {
  return JSON.stringify({ alg, x5c, ...extra });
}

/** A 48-byte big-endian P-384 scalar. */
export function scalar(value: bigint): Uint8Array {
  return new Uint8Array(Buffer.from(value.toString(16).padStart(96, '0'), 'hex'));
}

/** A raw JWS ECDSA signature segment `r || s`. */
export function rawSignature(r: Uint8Array, s: Uint8Array): string {
  return b64url(new Uint8Array([...r, ...s]));
}

function derInteger(bytes: Uint8Array): number[] {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = [...bytes.slice(start)];
  if ((body[0] ?? 0) & 0x80) body.unshift(0);
  return [0x02, body.length, ...body];
}

/** The same P-384 signature in ASN.1 DER (what X.509 uses; JWS requires raw `r || s`). */
export function derSignature(raw: Uint8Array): string {
  const content = [...derInteger(raw.slice(0, 48)), ...derInteger(raw.slice(48))];
  return b64url(new Uint8Array([0x30, content.length, ...content]));
}
