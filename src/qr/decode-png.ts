/** Reads the text of a QR code image (PNG), as a pharmacy scanner would. */
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

/** The PNG `bytes` as RGBA pixels, or `bad_request` when they are no readable PNG. */
function readPng(bytes: Buffer): PNG {
  try {
    return PNG.sync.read(bytes);
  } catch {
    throw new ErxError('bad_request', 'The image is not a readable PNG.');
  }
}

/** Decodes the QR code in a PNG image to its text. */
export function decodeQrPng(bytes: Buffer): string {
  const image = readPng(bytes);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!code) throw new ErxError('bad_request', 'No QR code was found in the image.');
  return code.data;
}

/** The smallest QR code is 21 modules square: no smaller block of an image holds one. */
const MIN_CODE_SIDE = 21;
/** Light rows or columns that part two blocks: a code's quiet zone is 4 modules of them. */
const MIN_GAP = 3;

interface Block {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** True for each pixel that is dark (luminance under half; a transparent pixel is light). */
function darkPixels(image: PNG): Uint8Array {
  const dark = new Uint8Array(image.width * image.height);
  const d = image.data;
  for (let i = 0, p = 0; p < dark.length; p++, i += 4) {
    const luminance = (d[i]! * 299 + d[i + 1]! * 587 + d[i + 2]! * 114) / 1000;
    dark[p] = d[i + 3]! >= 128 && luminance < 128 ? 1 : 0;
  }
  return dark;
}

/**
 * The stretches `[from, to)` of `lines` that hold a dark pixel, parted by at least
 * {@link MIN_GAP} light lines.
 */
function bands(lines: number, holdsDark: (line: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let lastDark = -1;
  for (let line = 0; line < lines; line++) {
    if (!holdsDark(line)) continue;
    if (start >= 0 && line - lastDark > MIN_GAP) {
      out.push([start, lastDark + 1]);
      start = line;
    }
    if (start < 0) start = line;
    lastDark = line;
  }
  if (start >= 0) out.push([start, lastDark + 1]);
  return out;
}

/**
 * The blocks of `block` parted by light rows, then by light columns, recursively (an XY cut),
 * each trimmed to its dark pixels, top to bottom and left to right. Blocks too small for a code
 * are dropped, so an image of noise costs one pass per level, not one per pixel.
 */
function cut(dark: Uint8Array, width: number, block: Block, out: Block[]): void {
  const { left, top, right, bottom } = block;
  const rowHolds = (y: number): boolean =>
    dark.subarray((top + y) * width + left, (top + y) * width + right).includes(1);
  const rows = bands(bottom - top, rowHolds);
  const columnHolds = (x: number): boolean => {
    for (let y = top; y < bottom; y++) if (dark[y * width + left + x] === 1) return true;
    return false;
  };
  const parted =
    rows.length > 1
      ? rows.map(([from, to]): Block => ({ left, right, top: top + from, bottom: top + to }))
      : bands(right - left, columnHolds).map(([from, to]): Block => ({
          top,
          bottom,
          left: left + from,
          right: left + to,
        }));
  const big = parted.filter(
    (b) => b.right - b.left >= MIN_CODE_SIDE && b.bottom - b.top >= MIN_CODE_SIDE,
  );
  if (parted.length === 1 && big.length === 1) {
    const [only] = big;
    const same =
      only!.left === left && only!.top === top && only!.right === right && only!.bottom === bottom;
    if (same) {
      out.push(only!);
      return;
    }
  }
  for (const b of big) cut(dark, width, b, out);
}

/** `block` of `image` with a white border of `pad` pixels, as RGBA for jsqr. */
function cropped(
  image: PNG,
  block: Block,
  pad: number,
): { data: Uint8ClampedArray; width: number; height: number } {
  const width = block.right - block.left + 2 * pad;
  const height = block.bottom - block.top + 2 * pad;
  const data = new Uint8ClampedArray(width * height * 4).fill(0xff);
  for (let y = block.top; y < block.bottom; y++) {
    const from = (y * image.width + block.left) * 4;
    const row = image.data.subarray(from, from + (block.right - block.left) * 4);
    data.set(row, ((y - block.top + pad) * width + pad) * 4);
  }
  return { data, width, height };
}

/**
 * The texts of the QR codes in a PNG image (at most `max`), top to bottom and left to right: one
 * code, or the part codes of a CHMED23A link stacked in one image (`src/qr/render-codes.ts`) or
 * placed side by side. The image is cut into blocks along light rows and columns and each block
 * read on its own (jsqr reads one code per image); an image that does not cut into readable blocks
 * (a photo's background) is read whole.
 */
export function decodeQrCodesPng(bytes: Buffer, max: number): string[] {
  const image = readPng(bytes);
  const blocks: Block[] = [];
  const whole = { left: 0, top: 0, right: image.width, bottom: image.height };
  cut(darkPixels(image), image.width, whole, blocks);
  const texts: string[] = [];
  for (const block of blocks) {
    if (texts.length === max) break;
    const { data, width, height } = cropped(image, block, 4 * MIN_GAP);
    const code = jsQR(data, width, height);
    if (code) texts.push(code.data);
  }
  if (texts.length > 0) return texts;
  return [decodeQrPng(bytes)];
}
