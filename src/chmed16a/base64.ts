/**
 * Strict standard base64 (RFC 4648 §4, with padding) for the `CHMED16A1` data part.
 */
import { DocumentDecodeError } from './decode-error.js';

/**
 * Decodes canonical base64 or throws `bad_base64`.
 * `Buffer.from(text, 'base64')` silently skips foreign characters, accepts missing padding and
 * the URL-safe alphabet, and ignores non-zero trailing bits; re-encoding the result and comparing
 * with the input refuses all of those at once.
 */
export function decodeBase64Strict(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw new DocumentDecodeError('bad_base64');
  return bytes;
}
