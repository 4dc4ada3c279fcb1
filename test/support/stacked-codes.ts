/**
 * Reads an image of several QR codes stacked top to bottom, as create answers the part links of a
 * CHMED23A prescription (src/qr/render-codes.ts): each block of equal height read as a scanner
 * reads a code cut out of the print.
 */
import { PNG } from 'pngjs';
import { decodeQrPng } from '../../src/qr/decode-png.js';

/** The text of each of the `count` codes stacked in `png`, top to bottom. */
export function readStackedCodes(png: Buffer, count: number): string[] {
  const image = PNG.sync.read(png);
  const height = image.height / count;
  if (!Number.isInteger(height)) throw new Error(`${image.height} pixels hold no ${count} blocks`);
  const row = image.width * 4;
  return Array.from({ length: count }, (_, i) => {
    const block = new PNG({ width: image.width, height });
    image.data.copy(block.data, 0, i * height * row, (i + 1) * height * row);
    return decodeQrPng(PNG.sync.write(block));
  });
}
