/**
 * Bytes a memo keeps for long. Node answers small Buffers (`Buffer.from`, under 4 KiB) as views
 * into a shared 8 KiB slab (`Buffer.poolSize`), and one view kept alive keeps its whole slab: a
 * memo of thousands of 32-byte hashes or short answers would hold 8 KiB for each. These own
 * exactly their bytes.
 */

/** `bytes` itself when it owns its whole buffer, otherwise a copy that does. */
export function ownedBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  return new Uint8Array(bytes);
}

/** `text` in UTF-8, in a buffer of its own (never a slab's). */
export function ownedUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 0, 'utf8');
  return bytes;
}
