/**
 * The document every bench prescription is made from: the repository's example prescription,
 * validated once, dated when the bench runs and with enough packages of the medicament the
 * dispense figures draw on for every dispense of a run (SPEC.md §10: erx refuses an expired
 * document at create and a dispense past the prescribed quantity).
 */
import { readFileSync } from 'node:fs';
import { assertPrescription } from '../../src/chmed16a/index.js';
import type { Prescription } from '../../src/chmed16a/index.js';
import { medicamentRefs } from '../../src/service/rules/medicament-refs.js';
import { prescribedPackages } from '../../src/service/rules/terms.js';
import type { MedicamentRef } from '../../src/store/types.js';

const EXAMPLE = new URL('../../examples/prescription.json', import.meta.url);

/** The `Id` of the create template; {@link documentText} puts a fresh one in its place. */
const TEMPLATE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The dispensed medicament's `NbPack` and `Rep` (the schema's largest `Rep`): 2,500 packages. A
 * figure dispenses one package per call, on the small set going round its prescriptions dozens of
 * times a run (about 60 per prescription in a full run of two passes at 2,000 calls/s); the
 * example's 8 packages would have erx refuse all but the first few with 403 `quantity_exceeded`.
 */
const DISPENSED_QUANTITY = { NbPack: 100, Rep: 24 } as const;

export interface SampleDocument {
  /** The example document, dated and with the dispensed quantity, checked against the schema. */
  readonly document: Prescription;
  /** The document as JSON text with a placeholder `Id` (the create template). */
  readonly text: string;
  /** What the store keeps of its medicaments. */
  readonly medicaments: MedicamentRef[];
  /** The medicament with the most packages: dispensed one package at a time. */
  readonly medicamentId: string;
  /** Packages prescribed of {@link medicamentId}. */
  readonly dispensable: number;
}

/**
 * The example with `Dt` = `at` (its own date is long past: erx would refuse it as expired) and
 * the medicament with the most packages raised to {@link DISPENSED_QUANTITY}, validated.
 */
export function loadSample(at: Date = new Date()): SampleDocument {
  const example: unknown = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  assertPrescription(example);
  const most = medicamentRefs({ format: 'CHMED16A', doc: example }).reduce((best, m) =>
    prescribedPackages(m) > prescribedPackages(best) ? m : best,
  );
  const document: unknown = {
    ...example,
    Dt: at.toISOString(),
    Medicaments: example.Medicaments.map((m) =>
      m.Id === most.Id ? { ...m, ...DISPENSED_QUANTITY } : m,
    ),
  };
  assertPrescription(document);
  const medicaments = medicamentRefs({ format: 'CHMED16A', doc: document });
  return {
    document,
    text: JSON.stringify({ ...document, Id: TEMPLATE_ID }),
    medicaments,
    medicamentId: most.Id,
    dispensable: prescribedPackages(medicaments.find((m) => m.Id === most.Id)!),
  };
}

/** The create template with `id` as the document's `Id`. */
export function documentText(templateText: string, id: string): string {
  return templateText.replace(TEMPLATE_ID, id);
}
