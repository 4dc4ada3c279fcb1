/**
 * Reading a ChTransmissionFormat string (`CHMED16A1<base64 gzip>` or `CHMED16A0<JSON>`).
 */
import { DocumentDecodeError } from './decode-error.js';
import { inflateLenient, inflateStrict, parseDocument } from './document-json.js';
import { CHMED_PREFIX, MAX_DOCUMENT_BYTES } from './limits.js';

// Case-insensitive (SPEC.md §3) in ASCII only: without the `u` flag, `i` never folds a
// non-ASCII character onto an ASCII letter, unlike `toUpperCase()` (e.g. 'ı' becomes 'I').
const PREFIX = new RegExp(`^${CHMED_PREFIX}([01])`, 'i');

/** Checks the size of the plain-JSON encoding before anything parses it. */
function plainData(data: string): string {
  // A UTF-16 unit is at least one UTF-8 byte: the cheap length test goes first.
  if (data.length > MAX_DOCUMENT_BYTES || Buffer.byteLength(data, 'utf8') > MAX_DOCUMENT_BYTES) {
    throw new DocumentDecodeError('too_large');
  }
  return data;
}

/**
 * Decodes a `CHMED16A1`/`CHMED16A0` string (prefix case-insensitive, SPEC.md §3) to its JSON
 * object, without validating it as a prescription. Throws {@link DocumentDecodeError}.
 */
export function decodeChmed(text: string): Record<string, unknown> {
  const match = PREFIX.exec(text);
  if (match === null) throw new DocumentDecodeError('bad_prefix');
  const data = text.slice(match[0].length);
  return parseDocument(match[1] === '1' ? inflateStrict(data) : plainData(data));
}

/**
 * Reads a `CHMED16A1`/`CHMED16A0` string whoever wrote it (SPEC.md §3 "Links erx did not issue"):
 * as {@link decodeChmed}, but the base64 may be URL-safe, unpadded or wrapped over lines (see
 * `lenient-base64.ts`), and blanks around the string are ignored. For reading and display only:
 * create takes what {@link decodeChmed} takes, and a link's hash is of the string as it stands.
 */
export function readChmed(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  const match = PREFIX.exec(trimmed);
  if (match === null) throw new DocumentDecodeError('bad_prefix');
  const data = trimmed.slice(match[0].length);
  if (match[1] === '0') return parseDocument(plainData(data));
  return parseDocument(inflateLenient(data));
}
