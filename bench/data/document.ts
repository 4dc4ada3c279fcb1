/**
 * The document every bench prescription is made from: the repository's example prescription,
 * validated once, with the medicament the dispense figures draw on.
 */
import { readFileSync } from 'node:fs';
import { assertPrescription } from '../../src/chmed16a/index.js';
import type { Prescription } from '../../src/chmed16a/index.js';
import { medicamentRefs } from '../../src/service/medicament-refs.js';
import type { MedicamentRef } from '../../src/store/types.js';

const EXAMPLE = new URL('../../examples/prescription.json', import.meta.url);

/** The `Id` of the create template; {@link documentText} puts a fresh one in its place. */
const TEMPLATE_ID = '00000000-0000-4000-8000-000000000000';

export interface SampleDocument {
  /** The example document, checked against the schema. */
  readonly document: Prescription;
  /** The document as JSON text with a placeholder `Id` (the create template). */
  readonly text: string;
  /** What the store keeps of its medicaments. */
  readonly medicaments: MedicamentRef[];
  /** The medicament with the most packs (`NbPack × (Rep + 1)`): dispensed one pack at a time. */
  readonly medicamentId: string;
}

function packs(ref: MedicamentRef): number {
  return (ref.NbPack ?? 1) * ((ref.Rep ?? 0) + 1);
}

/** Reads and validates the example prescription. */
export function loadSample(): SampleDocument {
  const document: unknown = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  assertPrescription(document);
  const medicaments = medicamentRefs(document);
  const most = medicaments.reduce((best, m) => (packs(m) > packs(best) ? m : best));
  return {
    document,
    text: JSON.stringify({ ...document, Id: TEMPLATE_ID }),
    medicaments,
    medicamentId: most.Id,
  };
}

/** The create template with `id` as the document's `Id`. */
export function documentText(templateText: string, id: string): string {
  return templateText.replace(TEMPLATE_ID, id);
}
