/**
 * The CHMED23A prescription profile erx creates from: the model of `schema.ts` with what IG
 * eMediplan's "Rx" column requires of a prescription (`medType` 3, `auth` 1 with `hcPerson`,
 * its `gln` and `hcOrg`, at least one medicament, a patient with gender and an identifier),
 * the seed's field rules where CHMED16A has the same field (13-digit GLN, 4–5 digit postcode, ZSR
 * at most 7 characters), and erx's own: a whole package count of 1 to 10,000 (SPEC.md §10). erx
 * also requires a UUID `id` (checked beside, as for CHMED16A). Unknown fields are accepted at every
 * level, as the IG asks of readers (docs/decisions.md).
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { NO_CONTROL_CHARACTERS, THIRTEEN_DIGITS, ZIP_CODE } from '../chmed16a/schema.js';
import { Gender, HcOrg, HcPerson, Medicament, Medication, Patient, PatientId } from './schema.js';

/** SPEC.md §10: a package count erx creates from is a whole number from 1 to 10,000. */
export const PACKAGE_RANGE = { minimum: 1, maximum: 10_000 } as const;

const zsr = Type.Optional(Type.String({ maxLength: 7 }));
const zip = Type.String({ pattern: ZIP_CODE });

const RxPatient = Type.Object({
  ...Patient.properties,
  bdt: Type.String({ format: 'date', description: 'Date of birth, `yyyy-mm-dd`.' }),
  gender: Gender,
  zip: Type.Optional(zip),
  ids: Type.Array(PatientId, { minItems: 1 }),
});

const RxMedicament = Type.Object({
  ...Medicament.properties,
  id: Type.String({ pattern: NO_CONTROL_CHARACTERS }),
  idType: Type.Integer({
    enum: [1, 2, 3],
    description: '1 none (free text in `id`), 2 GTIN, 3 Pharmacode (4 is not for prescriptions).',
  }),
  nbPack: Type.Optional(
    Type.Integer({ ...PACKAGE_RANGE, description: 'Packages to deliver, whole; default 1.' }),
  ),
});

/** A CHMED23A prescription as erx takes it at create. */
export const Chmed23Prescription = Type.Object(
  {
    ...Medication.properties,
    patient: RxPatient,
    hcPerson: Type.Object({
      ...HcPerson.properties,
      gln: Type.String({ pattern: THIRTEEN_DIGITS }),
      zsr,
    }),
    hcOrg: Type.Object({ ...HcOrg.properties, zip, zsr }),
    meds: Type.Array(RxMedicament, { minItems: 1 }),
    medType: Type.Literal(3),
    id: Type.String({ description: 'A UUID (erx requires it: ids must be unguessable).' }),
    auth: Type.Literal(1),
    dt: Type.String({ format: 'date-time', description: 'The prescription date.' }),
  },
  {
    description:
      'A CHMED23A prescription (IG eMediplan), as erx creates from it. Fields beyond those listed ' +
      'are accepted and kept in the link as sent, as the IG asks of readers.',
  },
);
export type Chmed23Prescription = Static<typeof Chmed23Prescription>;
