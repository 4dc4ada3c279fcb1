/**
 * QR codes of prescription links (SPEC.md §3): one rendering for the service and the CLI. Level M
 * error correction keeps the code readable from a phone photo of a printout while staying small
 * enough for a ~1-2 KB link. PNG modules are a whole number of pixels (scaling by a fraction
 * blurs module edges and scanners, jsqr among them, miss codes at many sizes); the image is then
 * padded with quiet zone to exactly the requested width.
 */
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

const ERROR_CORRECTION = 'M';
const MARGIN = 4;
/** Bytes a version 40 code holds at level M in byte mode (ISO/IEC 18004 table 7). */
const MAX_BYTES = 2331;

/** Pixels per module so the whole code (with its quiet zone) fits in `width`, at least 1. */
function scaleFor(text: string, width: number): number {
  const modules = QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION }).modules.size;
  return Math.max(1, Math.floor(width / (modules + 2 * MARGIN)));
}

/** Centres `image` on a white square `width` pixels wide (no-op when it is not smaller). */
function padTo(image: PNG, width: number): PNG {
  if (image.width >= width) return image;
  const out = new PNG({ width, height: width, colorType: 6 });
  out.data.fill(0xff);
  const offset = Math.floor((width - image.width) / 2);
  PNG.bitblt(image, out, 0, 0, image.width, image.height, offset, offset);
  return out;
}

/** True when `text` fits in one QR code at level M (at most version 40, about 2,300 bytes). */
export function fitsQrCode(text: string): boolean {
  // What fits as bytes fits: the encoder only ever picks a denser mode. Saves an encoding.
  if (Buffer.byteLength(text, 'utf8') <= MAX_BYTES) return true;
  try {
    QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION });
    return true;
  } catch {
    // qrcode throws for data over the capacity of the largest version; nothing else reaches here
    // for a non-empty string.
    return false;
  }
}

/** Renders `text` as a PNG QR code exactly `width` pixels wide (wider only if it cannot fit). */
export async function renderQrPng(text: string, width: number): Promise<Buffer> {
  const png = await QRCode.toBuffer(text, {
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: MARGIN,
    type: 'png',
    scale: scaleFor(text, width),
  });
  return PNG.sync.write(padTo(PNG.sync.read(png), width));
}

/** Renders `text` as an SVG QR code `width` pixels wide (vector: no rounding needed). */
export function renderQrSvg(text: string, width: number): Promise<string> {
  return QRCode.toString(text, {
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: MARGIN,
    type: 'svg',
    width,
  });
}
