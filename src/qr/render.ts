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
import { ERROR_CORRECTION } from './fits.js';

const MARGIN = 4;
/** A QR code as scanlines: `side` pixels square, `row(y)` its `ceil(side / 8)` bytes at `y`. */
export interface QrRaster {
  readonly side: number;
  readonly row: (y: number) => Uint8Array;
}

/**
 * The QR code of `text` exactly `width` pixels wide (wider only if it cannot fit): black modules
 * of a whole number of pixels each, with {@link MARGIN} modules of quiet zone, centred.
 */
export function qrRaster(text: string, width: number): QrRaster {
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
  return {
    side,
    row: (y) => {
      const r = Math.floor((y - start) / scale);
      return y >= start && r < modules ? rows[r]! : white;
    },
  };
}

/** Renders `text` as a PNG QR code exactly `width` pixels wide (see {@link qrRaster}). */
export async function renderQrPng(text: string, width: number): Promise<Buffer> {
  const { side, row } = qrRaster(text, width);
  return bitonalPng(side, side, row);
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
