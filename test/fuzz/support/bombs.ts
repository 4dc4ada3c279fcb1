/**
 * Gzip bombs of a chosen compressed size. A 1 MiB bomb inflates to about 1 GiB, more than a test
 * should allocate, so the deflate stream is assembled from one compressed piece: 1 MiB of zeros
 * ended by a full flush, which resets the compressor, so the piece repeated n times is a valid
 * stream of n MiB of zeros. The member is complete (header, final block, CRC-32, size).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MIB = 1 << 20;
const ZEROS = Buffer.alloc(MIB);
const PIECE = deflateRawSync(ZEROS, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));
// ID1 ID2, deflate, no flags, no mtime, XFL 2 (best compression), OS unknown (RFC 1952 §2.3).
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);

/** A gzip member and what it inflates to. */
export interface Bomb {
  gzip: Buffer;
  inflatedBytes: number;
}

/** A gzip member of about `compressedBytes` that inflates to zeros at about 1000:1. */
export function gzipBomb(compressedBytes: number): Bomb {
  const pieces = Math.max(1, Math.round(compressedBytes / PIECE.length));
  let crc = 0;
  for (let i = 0; i < pieces; i++) crc = crc32(ZEROS, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((pieces * MIB) % 2 ** 32, 4);
  const gzip = Buffer.concat([HEADER, ...Array<Buffer>(pieces).fill(PIECE), FINAL_BLOCK, trailer]);
  return { gzip, inflatedBytes: pieces * MIB };
}
