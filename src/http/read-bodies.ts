/**
 * The bodies of create and verify read into typed values before the service sees them.
 *
 * Create (SPEC.md §5): reads the body of a create call: the JSON document, or its `CHMED16A0`/
 * `CHMED16A1`/`CHMED23A.` string, raw or as a JSON string. A JSON document is CHMED23A when it
 * has CHMED23A's required `meds` or `medType` and none of CHMED16A's, else CHMED16A. Validates it
 * (SPEC.md §4; CHMED23A against its prescription profile) and requires the id to be a UUID other
 * than the nil one: anyone who knows an id can try to act on it, so ids must be unguessable.
 */
import { PACKAGE_RANGE } from '../chmed23a/index.js';
import { asPrescriptionDocument, decodeStrict, documentViolations } from '../document/index.js';
import type { DocumentFormat, PrescriptionDocument } from '../document/index.js';
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';
import { parseJsonSafe } from '../json/index.js';
import { isPartLink, joinPartLinks } from '../link/parts.js';
import { parseLink } from '../link/index.js';
import { idProblem } from '../service/index.js';

/** The body decoded, with its release and, for a string, the string. */
interface DecodedBody {
  readonly format: DocumentFormat;
  readonly doc: unknown;
  readonly chmed?: string;
}

/** The release of a JSON document: CHMED23A names its fields in camelCase. */
function formatOfJson(doc: unknown): DocumentFormat {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return 'CHMED16A';
  const has = (key: string): boolean => Object.hasOwn(doc, key);
  const chmed23 = has('meds') || has('medType');
  return chmed23 && !has('Medicaments') && !has('MedType') ? 'CHMED23A' : 'CHMED16A';
}

function decodeBody(body: string): DecodedBody {
  const text = body.trim();
  if (text === '') throw new ErxError('bad_request', 'The body must hold a prescription document.');
  if (text.startsWith('{')) {
    const doc = parseJsonSafe(text);
    return { format: formatOfJson(doc), doc };
  }
  const chmed = text.startsWith('"') ? parseJsonSafe(text) : text;
  if (typeof chmed !== 'string') {
    throw new ErxError(
      'bad_request',
      'The body must be a JSON document or a CHMED16A or CHMED23A string.',
    );
  }
  const decoded = decodeStrict(chmed.trim());
  return decoded.format === 'CHMED23A' ? decoded : { format: decoded.format, doc: decoded.doc };
}

/** The names of the fields create checks beyond the schema, in the document's release. */
const FIELDS = {
  CHMED16A: { medicaments: 'Medicaments', id: 'Id', count: 'NbPack' },
  CHMED23A: { medicaments: 'meds', id: 'id', count: 'nbPack' },
} as const;

/**
 * Medicaments whose `Id` an earlier one has already: a dispensed item names its medicament by
 * `Id`, so each must name one (SPEC.md §10 counts packages per medicament).
 */
function repeatedMedicaments(doc: unknown, format: DocumentFormat): Violation[] {
  const names = FIELDS[format];
  const medicaments = (doc as Record<string, unknown> | null)?.[names.medicaments];
  if (!Array.isArray(medicaments)) return [];
  const first = new Map<unknown, number>();
  return medicaments.flatMap((m: unknown, index) => {
    const mid = (m as Record<string, unknown> | null)?.[names.id];
    if (typeof mid !== 'string') return [];
    const earlier = first.get(mid);
    if (earlier === undefined) {
      first.set(mid, index);
      return [];
    }
    return [
      {
        path: `/${names.medicaments}/${index}/${names.id}`,
        code: 'repeated_id' as const,
        message: `repeats the Id of medicament ${earlier}`,
        params: { index: earlier },
      },
    ];
  });
}

/** SPEC.md §10: a package count erx creates is an integer from 1 to 10,000. */
export const NB_PACK_RANGE = PACKAGE_RANGE;

/**
 * `NbPack` values outside {@link NB_PACK_RANGE}: the schema reads any integer (documents already
 * issued elsewhere), create refuses what no prescription can be.
 */
function packageCounts(doc: unknown, format: DocumentFormat): Violation[] {
  // The CHMED23A profile bounds `nbPack` itself.
  if (format === 'CHMED23A') return [];
  const medicaments = (doc as { Medicaments?: unknown } | null)?.Medicaments;
  if (!Array.isArray(medicaments)) return [];
  return medicaments.flatMap((m: unknown, index): Violation[] => {
    const count = (m as { NbPack?: unknown } | null)?.NbPack;
    if (typeof count !== 'number' || !Number.isInteger(count)) return [];
    const path = `/Medicaments/${index}/NbPack`;
    if (count < NB_PACK_RANGE.minimum) {
      const limit = NB_PACK_RANGE.minimum;
      return [{ path, code: 'minimum', message: `must be >= ${limit}`, params: { limit } }];
    }
    if (count > NB_PACK_RANGE.maximum) {
      const limit = NB_PACK_RANGE.maximum;
      return [{ path, code: 'maximum', message: `must be <= ${limit}`, params: { limit } }];
    }
    return [];
  });
}

/** Parses and validates a create body; every violation is reported at once (400). */
export function readPrescriptionForCreate(body: string): PrescriptionDocument {
  const { format, doc, chmed } = decodeBody(body);
  const violations: Violation[] = documentViolations(format, doc);
  const idField = FIELDS[format].id;
  const id = (doc as Record<string, unknown> | null)?.[idField];
  const problem = typeof id === 'string' ? idProblem(id, `/${idField}`) : undefined;
  if (problem !== undefined) violations.push(problem);
  violations.push(...repeatedMedicaments(doc, format), ...packageCounts(doc, format));
  const document = violations.length === 0 ? asPrescriptionDocument(format, doc, chmed) : undefined;
  if (document === undefined) {
    throw new ErxError('bad_request', 'The prescription document is invalid.', {
      causeCode: 'invalid_document',
      violations,
    });
  }
  return document;
}

/**
 * The link from a verify body (SPEC.md §5): the raw text, or a JSON string holding it. The part
 * links of a CHMED23A link on several QR codes may be given instead, in any order, as a JSON array
 * of strings or as raw text with one part on each line; they are joined into the link in one
 * piece (`PartsError` naming missing or repeated parts).
 */
export function readLinkText(body: string): string {
  const text = body.trim();
  if (text.startsWith('[')) {
    const value = parseJsonSafe(text);
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) {
      throw new ErxError('bad_request', 'The body must be the link, or its parts as strings.');
    }
    return joinPartLinks(value.map((v: string) => v.trim()));
  }
  if (!text.startsWith('"')) {
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    return joinPartLinks(lines.length > 1 && lines.every(isPartLinkText) ? lines : [text]);
  }
  const value = parseJsonSafe(text);
  if (typeof value !== 'string') throw new ErxError('bad_request', 'The body must be the link.');
  return joinPartLinks([value]);
}

/** True when `text` is a link whose document part is a numbered CHMED23 part. */
function isPartLinkText(text: string): boolean {
  try {
    return isPartLink(parseLink(text));
  } catch {
    return false;
  }
}
