/**
 * The steps every ChTransmissionFormat reader shares once the data is bytes: inflate exactly one
 * gzip member within the size limit, decode UTF-8 strictly, parse within the depth limit
 * (SPEC.md §9). CHMED16A and CHMED23A differ only in how the data is found and assembled.
 */
import { JsonError, parseJsonSafe } from '../json/parse-safe.js';
import { decodeBase64Strict } from './base64.js';
import { DocumentDecodeError } from './decode-error.js';
import { gunzipSingleMember } from './gunzip-single.js';
import { lenientBase64 } from './lenient-base64.js';
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH, MAX_ENCODED_DATA_LENGTH } from './limits.js';

// `fatal` refuses malformed UTF-8 instead of replacing it with U+FFFD; a leading BOM is dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Inflates the gzip bytes of a data part to JSON text, at most 256 KiB of it. */
function inflateBytes(bytes: Buffer): string {
  const json = gunzipSingleMember(bytes, MAX_DOCUMENT_BYTES);
  try {
    return utf8.decode(json);
  } catch {
    throw new DocumentDecodeError('bad_utf8');
  }
}

/**
 * The JSON text of canonical base64-of-gzip `data`, as erx writes it and create takes it. The
 * length is checked before any base64 decoding.
 */
export function inflateStrict(data: string): string {
  if (data.length > MAX_ENCODED_DATA_LENGTH) throw new DocumentDecodeError('too_large');
  return inflateBytes(decodeBase64Strict(data));
}

/**
 * The JSON text of base64-of-gzip `data` as other writers spell it: URL-safe or standard
 * alphabet, padded or not, wrapped over lines (see `lenient-base64.ts`). For reading only.
 */
export function inflateLenient(data: string): string {
  // Wrapping adds a line break, perhaps the prefix again, per 76 characters: twice the canonical
  // length bounds the work before the canonical length is checked.
  if (data.length > 2 * MAX_ENCODED_DATA_LENGTH) throw new DocumentDecodeError('too_large');
  const canonical = lenientBase64(data);
  if (canonical === undefined) throw new DocumentDecodeError('bad_base64');
  if (canonical.length > MAX_ENCODED_DATA_LENGTH) throw new DocumentDecodeError('too_large');
  return inflateBytes(Buffer.from(canonical, 'base64'));
}

/** Parses with the shared safe parser and requires a JSON object. */
export function parseDocument(json: string): Record<string, unknown> {
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
