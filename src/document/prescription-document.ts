/**
 * A prescription document in either release erx creates from: CHMED16A (seed §2.1) or a CHMED23A
 * prescription (IG eMediplan). What the service needs of one, whichever it is: its id, its date,
 * its medicaments and the ChTransmissionFormat string its link carries.
 */
import {
  decodeChmed,
  encodeChmed,
  isPrescription,
  validatePrescription,
} from '../chmed16a/index.js';
import type { Prescription } from '../chmed16a/index.js';
import {
  decodeChmed23,
  encodeChmed23,
  isChmed23,
  isChmed23Prescription,
  validateChmed23Prescription,
} from '../chmed23a/index.js';
import type { Chmed23Prescription } from '../chmed23a/index.js';
import type { Violation } from '../errors.js';
import type { DocumentFormat } from './read-document.js';

/** A validated prescription document, tagged with its release. */
export type PrescriptionDocument =
  | { readonly format: 'CHMED16A'; readonly doc: Prescription }
  | {
      readonly format: 'CHMED23A';
      readonly doc: Chmed23Prescription;
      /** The `CHMED23A.` string it was sent as, kept in the link as written. */
      readonly chmed?: string;
    };

/** A document decoded, not yet validated. */
export interface DecodedDocument {
  readonly format: DocumentFormat;
  readonly doc: Record<string, unknown>;
  /** The string as decoded (CHMED23A: the prefix in upper case). */
  readonly chmed: string;
}

/** Decodes a ChTransmissionFormat string strictly, as create and verify take it. */
export function decodeStrict(text: string): DecodedDocument {
  if (isChmed23(text)) {
    const read = decodeChmed23(text);
    return { format: 'CHMED23A', doc: read.doc, chmed: read.whole };
  }
  return { format: 'CHMED16A', doc: decodeChmed(text), chmed: text };
}

/** The violations of `doc` against the rules of `format` (SPEC.md §4; CHMED23A: its profile). */
export function documentViolations(format: DocumentFormat, doc: unknown): Violation[] {
  return format === 'CHMED23A' ? validateChmed23Prescription(doc) : validatePrescription(doc);
}

/** `doc` as a {@link PrescriptionDocument}, or undefined when it breaks the rules of `format`. */
export function asPrescriptionDocument(
  format: DocumentFormat,
  doc: unknown,
  chmed?: string,
): PrescriptionDocument | undefined {
  if (format === 'CHMED23A') {
    if (!isChmed23Prescription(doc)) return undefined;
    return chmed === undefined ? { format, doc } : { format, doc, chmed };
  }
  return isPrescription(doc) ? { format, doc } : undefined;
}

/** The document's id (`Id` in CHMED16A, `id` in CHMED23A). */
export function documentId(d: PrescriptionDocument): string {
  return d.format === 'CHMED23A' ? d.doc.id : d.doc.Id;
}

/** The prescription date (`Dt` / `dt`) and the JSON pointer to it. */
export function documentDate(d: PrescriptionDocument): {
  readonly dt: string;
  readonly path: string;
} {
  return d.format === 'CHMED23A' ? { dt: d.doc.dt, path: '/dt' } : { dt: d.doc.Dt, path: '/Dt' };
}

/**
 * The string the link carries: CHMED16A always as `CHMED16A1` (SPEC.md §3); CHMED23A as it was
 * sent when it was sent as a string (the document reaches the pharmacy exactly as written), else
 * as `CHMED23A.` with erx's gzip.
 */
export function transmissionOf(d: PrescriptionDocument): string {
  if (d.format === 'CHMED16A') return encodeChmed(d.doc);
  return d.chmed ?? encodeChmed23(d.doc);
}
