/**
 * The bodies of create and verify read into typed values before the service sees them.
 *
 * Create (SPEC.md §5): reads the body of a create call (SPEC.md §5): the JSON document, or its `CHMED16A0`/`CHMED16A1`
 * string, raw or as a JSON string. Validates it (SPEC.md §4) and, for create, requires the `Id` to
 * be a UUID other than the nil one: anyone who knows an id can try to act on it, so ids must be
 * unguessable.
 */
import { decodeChmed, validatePrescription } from '../chmed16a/index.js';
import type { Prescription } from '../chmed16a/index.js';
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';
import { parseJsonSafe } from '../json/index.js';
import { idProblem } from '../service/ids.js';

function decodeBody(body: string): unknown {
  const text = body.trim();
  if (text === '') throw new ErxError('bad_request', 'The body must hold a prescription document.');
  if (text.startsWith('{')) return parseJsonSafe(text);
  const chmed = text.startsWith('"') ? parseJsonSafe(text) : text;
  if (typeof chmed !== 'string') {
    throw new ErxError('bad_request', 'The body must be a JSON document or a CHMED16A string.');
  }
  return decodeChmed(chmed.trim());
}

/**
 * Medicaments whose `Id` an earlier one has already: a dispensed item names its medicament by
 * `Id`, so each must name one (SPEC.md §10 counts packages per medicament).
 */
function repeatedMedicaments(doc: unknown): Violation[] {
  const medicaments = (doc as { Medicaments?: unknown } | null)?.Medicaments;
  if (!Array.isArray(medicaments)) return [];
  const first = new Map<unknown, number>();
  return medicaments.flatMap((m: unknown, index) => {
    const mid = (m as { Id?: unknown } | null)?.Id;
    if (typeof mid !== 'string') return [];
    const earlier = first.get(mid);
    if (earlier === undefined) {
      first.set(mid, index);
      return [];
    }
    return [
      {
        path: `/Medicaments/${index}/Id`,
        code: 'repeated_id' as const,
        message: `repeats the Id of medicament ${earlier}`,
        params: { index: earlier },
      },
    ];
  });
}

/** SPEC.md §10: a package count erx creates is an integer from 1 to 10,000. */
export const NB_PACK_RANGE = { minimum: 1, maximum: 10_000 } as const;

/**
 * `NbPack` values outside {@link NB_PACK_RANGE}: the schema reads any integer (documents already
 * issued elsewhere), create refuses what no prescription can be.
 */
function packageCounts(doc: unknown): Violation[] {
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
export function readPrescriptionForCreate(body: string): Prescription {
  const doc = decodeBody(body);
  const violations: Violation[] = validatePrescription(doc);
  const id = (doc as { Id?: unknown } | null)?.Id;
  const problem = typeof id === 'string' ? idProblem(id) : undefined;
  if (problem !== undefined) violations.push(problem);
  violations.push(...repeatedMedicaments(doc), ...packageCounts(doc));
  if (violations.length > 0) {
    throw new ErxError('bad_request', 'The prescription document is invalid.', {
      causeCode: 'invalid_document',
      violations,
    });
  }
  return doc as Prescription;
}

/** The link from a verify body (SPEC.md §5): the raw text, or a JSON string holding it. */
export function readLinkText(body: string): string {
  const text = body.trim();
  if (!text.startsWith('"')) return text;
  const value = parseJsonSafe(text);
  if (typeof value !== 'string') throw new ErxError('bad_request', 'The body must be the link.');
  return value;
}
