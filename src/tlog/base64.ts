/**
 * Standard base64 (RFC 4648 §4) as the C2SP formats write it: padded, no whitespace. Node's
 * decoder skips characters it does not know, so a text is accepted only when it is exactly the
 * encoding of what it decodes to.
 */

/** The bytes `text` encodes, or `undefined` when it is not canonical padded base64. */
export function decodeBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

/** Standard padded base64 of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}
