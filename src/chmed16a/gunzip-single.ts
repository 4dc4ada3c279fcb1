/**
 * Bounded decompression of exactly one gzip member (RFC 1952), nothing before or after it.
 */
import { gunzipSync, inflateRawSync } from 'node:zlib';
import type { InflateRaw } from 'node:zlib';
import { DocumentDecodeError } from './decode-error.js';

const GZIP_ID1 = 0x1f;
const GZIP_ID2 = 0x8b;
const CM_DEFLATE = 8;
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const FRESERVED = 0xe0;
const FIXED_HEADER_LENGTH = 10;
const TRAILER_LENGTH = 8;

/** What `inflateRawSync` returns with `info: true`. */
interface RawInflateInfo {
  buffer: Buffer;
  engine: InflateRaw;
}

/** Offset just past the zero byte ending the string that starts at `offset`. */
function skipZeroTerminated(bytes: Buffer, offset: number): number {
  const end = bytes.indexOf(0, offset);
  if (end < 0) throw new DocumentDecodeError('bad_gzip');
  return end + 1;
}

/** Length of the member header (RFC 1952 §2.3), or `bad_gzip` when it is malformed or cut. */
function headerLength(bytes: Buffer): number {
  if (bytes.length < FIXED_HEADER_LENGTH) throw new DocumentDecodeError('bad_gzip');
  const flags = bytes[3] ?? 0;
  if (bytes[0] !== GZIP_ID1 || bytes[1] !== GZIP_ID2 || bytes[2] !== CM_DEFLATE) {
    throw new DocumentDecodeError('bad_gzip');
  }
  if ((flags & FRESERVED) !== 0) throw new DocumentDecodeError('bad_gzip');
  let offset = FIXED_HEADER_LENGTH;
  if ((flags & FEXTRA) !== 0) {
    if (bytes.length < offset + 2) throw new DocumentDecodeError('bad_gzip');
    offset += 2 + bytes.readUInt16LE(offset);
  }
  if ((flags & FNAME) !== 0) offset = skipZeroTerminated(bytes, offset);
  if ((flags & FCOMMENT) !== 0) offset = skipZeroTerminated(bytes, offset);
  if ((flags & FHCRC) !== 0) offset += 2;
  if (offset > bytes.length) throw new DocumentDecodeError('bad_gzip');
  return offset;
}

/** Maps a zlib failure to a reason: the output cap is `too_large`, anything else `bad_gzip`. */
function zlibFailure(error: unknown): DocumentDecodeError {
  const code = (error as { code?: unknown } | null)?.code;
  return new DocumentDecodeError(code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'bad_gzip', code);
}

/**
 * Inflates `bytes`, which must be exactly one gzip member, to at most `maxOutputLength` bytes.
 * zlib's `maxOutputLength` stops inflating as soon as the cap is passed (SPEC.md §9). Node's
 * gunzip silently skips trailing zero bytes and reads any further bytes as another member, so
 * the end of the first member is located with a raw inflate first: anything after it, a second
 * member included, is refused as `trailing_data`. Node's gunzip then checks CRC-32 and size.
 */
export function gunzipSingleMember(bytes: Buffer, maxOutputLength: number): Buffer {
  const start = headerLength(bytes);
  let consumed: number;
  try {
    // With `info: true` zlib also returns its engine, whose `bytesWritten` counts the input
    // bytes the deflate stream used; Node's typings do not model that return shape.
    const options = { info: true, maxOutputLength };
    const result = inflateRawSync(bytes.subarray(start), options) as unknown as RawInflateInfo;
    consumed = result.engine.bytesWritten;
  } catch (error) {
    throw zlibFailure(error);
  }
  const end = start + consumed + TRAILER_LENGTH;
  if (end > bytes.length) throw new DocumentDecodeError('bad_gzip');
  if (end < bytes.length) throw new DocumentDecodeError('trailing_data');
  try {
    return gunzipSync(bytes, { maxOutputLength });
  } catch (error) {
    throw zlibFailure(error);
  }
}
