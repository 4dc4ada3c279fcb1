/**
 * Writing a ChTransmissionFormat string; erx always writes `CHMED16A1` (SPEC.md §3).
 */
import { constants, gzipSync } from 'node:zlib';
import { checkDepth } from '../json/check-depth.js';
import { JsonError, checkForbiddenKeys } from '../json/parse-safe.js';
import { DocumentDecodeError } from './decode-error.js';
import { CHMED_GZIP_PREFIX, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_DEPTH } from './limits.js';

/**
 * Encodes a document as `CHMED16A1` + base64 (with padding) of the gzip of its UTF-8 JSON.
 * Refuses (with {@link DocumentDecodeError}) what {@link decodeChmed} would refuse (too deep,
 * forbidden keys, over 256 KiB), so every string erx writes can be read back.
 */
export function encodeChmed(doc: object): string {
  return CHMED_GZIP_PREFIX + gzipDocument(doc);
}

/**
 * The base64 of the gzip of `doc`'s UTF-8 JSON, the data part of every ChTransmissionFormat
 * string erx writes, refusing what a reader would refuse (see {@link encodeChmed}).
 */
export function gzipDocument(doc: object): string {
  try {
    // Bounded depth first: JSON.stringify is recursive and must never see an unbounded value.
    checkDepth(doc, MAX_DOCUMENT_DEPTH);
    checkForbiddenKeys(doc);
  } catch (error) {
    if (error instanceof JsonError) throw new DocumentDecodeError(error.reason);
    throw error;
  }
  const json = Buffer.from(JSON.stringify(doc), 'utf8');
  if (json.length > MAX_DOCUMENT_BYTES) throw new DocumentDecodeError('too_large');
  // Best compression: the string ends up in a QR code, where every byte costs module density.
  const gzip = gzipSync(json, { level: constants.Z_BEST_COMPRESSION });
  return gzip.toString('base64');
}
