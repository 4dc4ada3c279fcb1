/**
 * Reading a prescription document in either ChTransmissionFormat release erx knows: CHMED16A
 * (`CHMED16A0`/`CHMED16A1`, always one string) and CHMED23A (`CHMED23A.…`, one string or its parts
 * in any order). For reading and display: whoever wrote it, leniently (SPEC.md §3).
 */
import { DocumentDecodeError, readChmed } from '../chmed16a/index.js';
import { PartsError, isChmed23, readChmed23 } from '../chmed23a/index.js';

/** The releases erx reads. */
export type DocumentFormat = 'CHMED16A' | 'CHMED23A';

/** A document read. */
export interface ReadDocument {
  readonly format: DocumentFormat;
  /** The JSON object, not validated. */
  readonly doc: Record<string, unknown>;
  /** How many strings it was read from. */
  readonly parts: number;
}

/** The release `text` claims by its prefix, or undefined when it claims none erx reads. */
export function formatOf(text: string): DocumentFormat | undefined {
  const start = text.trimStart();
  if (isChmed23(start)) return 'CHMED23A';
  if (/^chmed16a[01]/i.test(start)) return 'CHMED16A';
  return undefined;
}

/**
 * Reads the document that `texts` hold: one CHMED16A string, or a CHMED23A string or its parts.
 * Throws `DocumentDecodeError` (`bad_prefix` when a string is neither) or `PartsError`.
 */
export function readDocument(texts: readonly string[]): ReadDocument {
  const first = texts[0];
  if (first === undefined) throw new DocumentDecodeError('bad_prefix');
  if (formatOf(first) === 'CHMED23A') {
    const read = readChmed23(texts);
    return { format: 'CHMED23A', doc: read.doc, parts: read.parts };
  }
  // Only CHMED23A is split over several strings.
  if (texts.length > 1) throw PartsError.mixed();
  return { format: 'CHMED16A', doc: readChmed(first), parts: 1 };
}
