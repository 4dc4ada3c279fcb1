/**
 * Reads the QR code of an uploaded photo or PNG in the browser: the native detector when there
 * is one, jsQR otherwise (or when the native one finds nothing).
 */
import jsQR from 'jsqr';
import { detectNative } from './barcode-detector.js';

// Phone photos are 12+ megapixels; jsQR needs only a few pixels per module, and scaling down
// keeps decoding under a second.
const MAX_SIDE = 1600;

/** Decodes the pixels drawn from `source` (width × height) with jsQR. */
export function decodePixels(
  source: CanvasImageSource,
  width: number,
  height: number,
): string | undefined {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context === null) return undefined;
  context.drawImage(source, 0, 0, w, h);
  const pixels = context.getImageData(0, 0, w, h);
  const found = jsQR(pixels.data, w, h, { inversionAttempts: 'attemptBoth' });
  return found?.data;
}

/** The text of the QR code in an image file, or undefined when none is found. */
export async function decodeImageFile(file: Blob): Promise<string | undefined> {
  const bitmap = await createImageBitmap(file);
  try {
    return (await detectNative(bitmap)) ?? decodePixels(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}
