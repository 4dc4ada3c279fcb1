/**
 * Whether a text fits in one QR code with erx's settings (SPEC.md §3): the service splits a
 * CHMED23A link that does not into parts at create, and the page does the same when it shows a
 * remembered link again. Runs in Node and in the browser (no `Buffer`).
 */
import QRCode from 'qrcode';

/** Level M: readable from a phone photo of a printout, small enough for a ~1–2 KB link. */
export const ERROR_CORRECTION = 'M';
/** Bytes a version 40 code holds at level M in byte mode (ISO/IEC 18004 table 7). */
const MAX_BYTES = 2331;
/** Characters a version 40 code holds at level M in its densest mode, numeric (same table). */
const MAX_CHARACTERS = 5596;

const utf8 = new TextEncoder();

/** True when `text` fits in one QR code at level M (at most version 40, about 2,300 bytes). */
export function fitsQrCode(text: string): boolean {
  // What fits as bytes fits: the encoder only ever picks a denser mode. Saves an encoding.
  if (text.length <= MAX_BYTES && utf8.encode(text).length <= MAX_BYTES) return true;
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
