/**
 * Reading a ChTransmissionFormat string (`CHMED16A1<base64 gzip>` or `CHMED16A0<JSON>`).
 */
import { JsonError, parseJsonSafe } from '../json/parse-safe.js';
import { decodeBase64Strict } from './base64.js';
import { DocumentDecodeError } from './decode-error.js';
import { gunzipSingleMember } from './gunzip-single.js';
import {
  CHMED_PREFIX,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_ENCODED_DATA_LENGTH,
} from './limits.js';

// Case-insensitive (SPEC.md §3) in ASCII only: without the `u` flag, `i` never folds a
// non-ASCII character onto an ASCII letter, unlike `toUpperCase()` (e.g. 'ı' becomes 'I').
const PREFIX = new RegExp(`^${CHMED_PREFIX}([01])`, 'i');

// `fatal` refuses malformed UTF-8 instead of replacing it with U+FFFD; a leading BOM is dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes the bytes of the gzip encoding to JSON text. */
function inflateData(data: string): string {
  if (data.length > MAX_ENCODED_DATA_LENGTH) throw new DocumentDecodeError('too_large');
  const json = gunzipSingleMember(decodeBase64Strict(data), MAX_DOCUMENT_BYTES);
  try {
    return utf8.decode(json);
  } catch {
    throw new DocumentDecodeError('bad_utf8');
  }
}

/** Checks the size of the plain-JSON encoding before anything parses it. */
function plainData(data: string): string {
  // A UTF-16 unit is at least one UTF-8 byte: the cheap length test goes first.
  if (data.length > MAX_DOCUMENT_BYTES || Buffer.byteLength(data, 'utf8') > MAX_DOCUMENT_BYTES) {
    throw new DocumentDecodeError('too_large');
  }
  return data;
}

/** Parses with the shared safe parser and requires a JSON object. */
function parseDocument(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJsonSafe(json, { maxDepth: MAX_DOCUMENT_DEPTH });
  } catch (error) {
    if (error instanceof JsonError) throw new DocumentDecodeError(error.reason);
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DocumentDecodeError('not_object');
  }
  return value as Record<string, unknown>;
}

/**
 * Decodes a `CHMED16A1`/`CHMED16A0` string (prefix case-insensitive, SPEC.md §3) to its JSON
 * object, without validating it as a prescription. Throws {@link DocumentDecodeError}.
 */
export function decodeChmed(text: string): Record<string, unknown> {
  const match = PREFIX.exec(text);
  if (match === null) throw new DocumentDecodeError('bad_prefix');
  const data = text.slice(match[0].length);
  return parseDocument(match[1] === '1' ? inflateData(data) : plainData(data));
}
