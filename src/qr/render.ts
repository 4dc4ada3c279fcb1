/**
 * QR codes of prescription links (SPEC.md §3): one rendering for the service and the CLI. Level M
 * error correction keeps the code readable from a phone photo of a printout while staying small
 * enough for a ~1-2 KB link. PNG modules are a whole number of pixels (scaling by a fraction
 * blurs module edges and scanners, jsqr among them, miss codes at many sizes); the image is then
 * padded with quiet zone to exactly the requested width. PNGs are written from the code's modules
 * at one bit per pixel (`./bitonal-png.ts`): a 2048-pixel code costs about what the code's
 * encoding costs (~10 ms), where an RGBA image drawn and compressed took ~0.7 s.
 */
import QRCode from 'qrcode';
import { bitonalPng } from './bitonal-png.js';

const ERROR_CORRECTION = 'M';
const MARGIN = 4;
/** Bytes a version 40 code holds at level M in byte mode (ISO/IEC 18004 table 7). */
const MAX_BYTES = 2331;
/** Characters a version 40 code holds at level M in its densest mode, numeric (same table). */
const MAX_CHARACTERS = 5596;

/** True when `text` fits in one QR code at level M (at most version 40, about 2,300 bytes). */
export function fitsQrCode(text: string): boolean {
  // What fits as bytes fits: the encoder only ever picks a denser mode. Saves an encoding.
  if (Buffer.byteLength(text, 'utf8') <= MAX_BYTES) return true;
  // What is longer than the densest mode holds cannot fit: no encoding of a long link is tried
  // (it costs ~1 ms per kilobyte on the event loop).
  if (text.length > MAX_CHARACTERS) return false;
  try {
    QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION });
    return true;
  } catch {
    // qrcode throws for data over the capacity of the largest version; nothing else reaches here
    // for a non-empty string.
    return false;
  }
}

/**
 * Renders `text` as a PNG QR code exactly `width` pixels wide (wider only if it cannot fit): black
 * modules of a whole number of pixels each, with {@link MARGIN} modules of quiet zone, centred.
 */
export async function renderQrPng(text: string, width: number): Promise<Buffer> {
  const { size: modules, data } = QRCode.create(text, {
    errorCorrectionLevel: ERROR_CORRECTION,
  }).modules;
  const scale = Math.max(1, Math.floor(width / (modules + 2 * MARGIN)));
  const drawn = (modules + 2 * MARGIN) * scale;
  const side = Math.max(width, drawn);
  // Where the first module starts, in pixels from the image's edge (quiet zone and padding).
  const start = Math.floor((side - drawn) / 2) + MARGIN * scale;
  const stride = Math.ceil(side / 8);
  const white = Buffer.alloc(stride, 0xff);
  // Each row of modules is one scanline, repeated `scale` times.
  const rows = Array.from({ length: modules }, (_, r) => {
    const line = Buffer.from(white);
    for (let c = 0; c < modules; c++) {
      if (!data[r * modules + c]) continue;
      for (let x = start + c * scale; x < start + (c + 1) * scale; x++) {
        line[x >> 3]! &= ~(0x80 >> (x & 7));
      }
    }
    return line;
  });
  return bitonalPng(side, side, (y) => {
    const r = Math.floor((y - start) / scale);
    return y >= start && r < modules ? rows[r]! : white;
  });
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
