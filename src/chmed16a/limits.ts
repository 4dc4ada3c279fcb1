/**
 * Limits and markers of the ChTransmissionFormat (SPEC.md §3, §9).
 */
import { MAX_JSON_DEPTH } from '../json/parse-safe.js';

/** Largest decoded document, in UTF-8 bytes of its JSON (SPEC.md §9: 256 KiB). */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

/** Deepest JSON nesting of a decoded document (SPEC.md §9). */
export const MAX_DOCUMENT_DEPTH = MAX_JSON_DEPTH;

/**
 * Longest `CHMED16A1` data part (base64) that could hold a document within
 * {@link MAX_DOCUMENT_BYTES}: deflate never grows data by more than a few bytes per 64 KiB block,
 * so 1 KiB of slack covers the gzip header, trailer and block overhead. Longer input is refused
 * before any base64 decoding.
 */
export const MAX_ENCODED_DATA_LENGTH = Math.ceil((MAX_DOCUMENT_BYTES + 1024) / 3) * 4;

/** The format marker, compared case-insensitively on read (ChTransmissionFormat). */
export const CHMED_PREFIX = 'CHMED16A';

/** Marker of the base64-of-gzip encoding, the only one erx writes (SPEC.md §3). */
export const CHMED_GZIP_PREFIX = `${CHMED_PREFIX}1`;
