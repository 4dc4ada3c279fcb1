/**
 * One ChTransmissionFormat string of release year 23 (IG eMediplan `chtransmissionformat/`):
 * `CHMED23{SubVersion}{.Index/Total}?.{Data}`, the data always base64 of gzip, and a document
 * perhaps split over several strings (`CHMED23A.1/4.…` … `CHMED23A.4/4.…`), each holding a raw
 * slice of the base64 text.
 */
import { DocumentDecodeError } from '../chmed16a/decode-error.js';

/** The marker erx writes: release year 23, sub-version A, upper case (ChTransmissionFormat). */
export const CHMED23A_PREFIX = 'CHMED23A';

/**
 * Most parts one document may be split into. A QR code holds at most 2,953 bytes, so 100 codes
 * already hold more than any document erx takes once compressed; a larger count is refused before
 * anything is assembled, and an error naming the missing parts stays short.
 */
export const MAX_PARTS = 100;

/** One string, its header read. */
export interface Chmed23Part {
  /** The sub-version, upper case (`A`). */
  readonly subVersion: string;
  /** 1-based index of a part, or undefined for a document in one piece. */
  readonly index: number | undefined;
  /** How many parts the document was split into, or undefined for one piece. */
  readonly total: number | undefined;
  /** The data, a slice of the base64 text when the document is split. */
  readonly data: string;
}

// The year 23 grammar. Case-insensitive in ASCII only (without the `u` flag no non-ASCII letter
// folds onto an ASCII one); index and total are positive integers without leading zero. The
// digit count is bounded so that a number is read exactly.
const HEADER = /^chmed23([a-z]+)(?:\.([1-9][0-9]{0,5})\/([1-9][0-9]{0,5}))?\./i;

/** True when `text` starts as a year 23 string does (`CHMED23`, any case). */
export function isChmed23(text: string): boolean {
  return /^chmed23/i.test(text);
}

/**
 * Reads the header of one year 23 string; `bad_prefix` when it has none. A part's index and total
 * are checked against each other here; how parts fit together, in `assemble.ts`.
 */
export function readPart(text: string): Chmed23Part {
  const match = HEADER.exec(text);
  if (match === null) throw new DocumentDecodeError('bad_prefix');
  const data = text.slice(match[0].length);
  const subVersion = match[1]!.toUpperCase();
  if (match[2] === undefined) return { subVersion, index: undefined, total: undefined, data };
  return { subVersion, index: Number(match[2]), total: Number(match[3]), data };
}

/** The string of a document in one piece: `CHMED23A.` and the data. */
export function wholeString(subVersion: string, data: string): string {
  return `CHMED23${subVersion}.${data}`;
}
