/**
 * PNG files of black-and-white images, one bit per pixel (grayscale, bit depth 1; PNG spec §11.2.2):
 * what a QR code needs. A 2048-pixel square is 0.5 MB to compress instead of RGBA's 16 MB, which
 * makes the largest QR code erx renders cost milliseconds, not most of a second.
 */
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG filter type 0 (None) before each scanline: runs of equal bytes compress well as they are. */
const FILTER_NONE = 0;

/** CRC-32 (ISO 3309, as PNG chunks use it) of `parts` read one after another. */
function crc32(parts: readonly Uint8Array[]): number {
  let crc = 0xffffffff;
  for (const bytes of parts) {
    for (const byte of bytes) {
      crc ^= byte;
      for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
    }
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  // The CRC of the compressed data is cheap: it is a few kilobytes for a QR code.
  tail.writeUInt32BE(crc32([head.subarray(4), data]), 0);
  return Buffer.concat([head, data, tail]);
}

/**
 * A PNG `width` × `height` pixels whose scanline `y` is `row(y)`: `ceil(width / 8)` bytes, the
 * leftmost pixel in the high bit, 1 white and 0 black. `row` may answer the same buffer again.
 */
export function bitonalPng(width: number, height: number, row: (y: number) => Uint8Array): Buffer {
  const stride = Math.ceil(width / 8);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    raw[at] = FILTER_NONE;
    raw.set(row(y).subarray(0, stride), at + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: grayscale
  // Bytes 10-12: deflate compression, adaptive filtering, no interlace (all 0).
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
