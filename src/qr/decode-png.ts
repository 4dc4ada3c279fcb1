/** Reads the text of a QR code image (PNG), as a pharmacy scanner would. */
import { readFileSync } from 'node:fs';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { ErxError } from '../errors.js';

// jsqr is CommonJS typed as an ES module: under NodeNext its default import is `module.exports`,
// which is the function itself and also carries it as `.default`.
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** True when `bytes` start like a PNG file. */
export function isPng(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).equals(PNG_MAGIC);
}

/** Decodes the QR code in a PNG image to its text. */
export function decodeQrPng(bytes: Buffer): string {
  let image: PNG;
  try {
    image = PNG.sync.read(bytes);
  } catch {
    throw new ErxError('bad_request', 'The image is not a readable PNG.');
  }
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!code) throw new ErxError('bad_request', 'No QR code was found in the image.');
  return code.data;
}

/** Reads a PNG file and decodes its QR code. */
export function readQrFile(path: string): string {
  return decodeQrPng(readFileSync(path));
}
