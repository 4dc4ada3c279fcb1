/**
 * Test data shared by the suites: the sample prescription of `examples/prescription.json` and the
 * medicament ids it prescribes.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The first medicament of the sample prescription (GTIN). */
export const MED_A = '7680543201015';
/** The second medicament of the sample prescription (GTIN). */
export const MED_B = '7680621130046';
/** A GTIN the sample does not prescribe, handed out as a substitute. */
export const SUBSTITUTE = '7680999999999';

/**
 * The sample prescription with a fresh `Id`, dated now (a prescription expires, SPEC.md §10), and
 * any overrides.
 */
export function samplePrescription(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const doc = JSON.parse(readFileSync('examples/prescription.json', 'utf8')) as Record<
    string,
    unknown
  >;
  return { ...doc, Id: randomUUID(), Dt: new Date().toISOString(), ...overrides };
}

/**
 * The sample prescription with room for any dispensation a test makes (10,000 packages of each
 * medicament, substitution allowed), for suites about something other than the prescription
 * rules of SPEC.md §10.
 */
export function roomyPrescription(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const doc = samplePrescription();
  const medicaments = (doc.Medicaments as Record<string, unknown>[]).map((m) => ({
    ...m,
    NbPack: 10_000,
    Rep: 0,
    Subs: 0,
  }));
  return { ...doc, Medicaments: medicaments, ...overrides };
}
