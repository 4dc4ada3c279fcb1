/**
 * Strict decoding of a JWS `x5c` header (RFC 7515 §4.1.6): exactly `[leaf, root]`, each standard
 * base64 of DER in its one canonical spelling, so equal text always means equal bytes.
 */

/** Upper bound for one certificate; ours are well under 1 KiB. */
const MAX_CERTIFICATE_BASE64 = 16 * 1024;

/** The two certificates of a ledger `x5c`. */
export interface X5cPair {
  readonly leaf: Uint8Array;
  readonly root: Uint8Array;
}

function decodeStrict(text: unknown): Uint8Array | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_CERTIFICATE_BASE64) {
    return undefined;
  }
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  // Refuses non-zero padding bits and other spellings that decode to the same bytes.
  if (bytes.toString('base64') !== text) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes `[leaf, root]`; `undefined` for anything else (other lengths, non-strings, bad base64). */
export function decodeX5c(value: unknown): X5cPair | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const leaf = decodeStrict(value[0]);
  const root = decodeStrict(value[1]);
  if (leaf === undefined || root === undefined) return undefined;
  return { leaf, root };
}
