/**
 * The CHMED23A model (IG eMediplan `chmed23a/README.md`): a medication (plan or prescription) with
 * one patient and its medicaments, camelCase and abbreviated as the IG names it. This is the model
 * as a reader takes it: fields the IG requires in every document are required, the rest optional,
 * and every object open (a reader ignores fields it does not know). The stricter prescription
 * profile erx creates from is `profile.ts`.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { PosologyDetail, TimeUnit } from './schema-posology.js';
import { tagged } from './tagged.js';

/** An extension (`exts`): a named value under a schema, perhaps with nested extensions. */
export const Extension = Type.Object(
  {
    nm: Type.String(),
    val: Type.Optional(Type.String()),
    schema: Type.String(),
    exts: Type.Optional(Type.Array(Type.Object({}))),
  },
  { description: 'An extension: name `nm`, value `val` under `schema`; `exts` nests more.' },
);
const exts = Type.Optional(Type.Array(Extension));

/** A patient identifier: 1 insurance card number, 2 local PID (with its system `sId`). */
export const PatientId = Type.Object({
  type: Type.Integer({ enum: [1, 2] }),
  sId: Type.Optional(Type.String()),
  val: Type.String(),
});

/** 1 male, 2 female, 3 other. */
export const Gender = Type.Integer({ enum: [1, 2, 3], description: '1 male, 2 female, 3 other.' });

/** The patient. */
export const Patient = Type.Object({
  fName: Type.String(),
  lName: Type.String(),
  bdt: Type.String({ description: 'Date of birth, `yyyy-mm-dd`.' }),
  gender: Type.Optional(Gender),
  street: Type.Optional(Type.String()),
  zip: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
  lng: Type.Optional(Type.String()),
  ids: Type.Optional(Type.Array(PatientId)),
  exts,
  mData: Type.Optional(Type.Object({})),
  phones: Type.Optional(Type.Array(Type.String())),
  emails: Type.Optional(Type.Array(Type.String())),
});

/** When and how a medicament is taken. */
export const Posology = Type.Object({
  dtFrom: Type.Optional(Type.String()),
  dtTo: Type.Optional(Type.String()),
  inRes: Type.Optional(Type.Boolean({ description: 'Reserve medication.' })),
  po: PosologyDetail,
  relMeal: Type.Optional(
    Type.Integer({ enum: [1, 2, 3], description: '1 before, 2 during, 3 after a meal.' }),
  ),
  unit: Type.Optional(Type.String()),
  appInstr: Type.Optional(Type.String()),
  roa: Type.Optional(Type.String()),
  moa: Type.Optional(Type.String()),
});

const repeatCount = Type.Integer({ minimum: 0, description: 'Redemptions after the first.' });
const repeatDuration = Type.Integer({ minimum: 1, description: 'How long it may be redeemed.' });

/**
 * How often, or how long, a prescribed medicament may be redeemed: 1 a count `v` of repetitions,
 * 2 a duration `d` in unit `u`, 3 both. Absent: as `{t: 1, v: 1}` (IG eMediplan).
 */
export const Repetition = tagged(
  [
    Type.Object({ t: Type.Literal(1), v: repeatCount }),
    Type.Object({ t: Type.Literal(2), d: repeatDuration, u: TimeUnit }),
    Type.Object({ t: Type.Literal(3), v: repeatCount, d: repeatDuration, u: TimeUnit }),
  ],
  'Repetitions: 1 a count `v`, 2 a duration `d` `u`, 3 both. Absent means `{"t":1,"v":1}`.',
);
export type Repetition = Static<typeof Repetition>;

/** One medicament. */
export const Medicament = Type.Object({
  id: Type.String(),
  idType: Type.Integer({
    enum: [1, 2, 3, 4],
    description: '1 none (free text in `id`), 2 GTIN, 3 Pharmacode, 4 product number.',
  }),
  pos: Type.Optional(Type.Array(Posology)),
  rsn: Type.Optional(Type.String()),
  autoMed: Type.Optional(Type.Boolean()),
  prscbBy: Type.Optional(Type.String()),
  reps: Type.Optional(Repetition),
  isNotSub: Type.Optional(Type.Boolean({ description: 'True: must not be substituted.' })),
  sic: Type.Optional(Type.Boolean()),
  nbPack: Type.Optional(Type.Number({ description: 'Packages to deliver; default 1.' })),
  exts,
});
export type Medicament = Static<typeof Medicament>;

/** The author and prescriber. */
export const HcPerson = Type.Object({
  gln: Type.Optional(Type.String()),
  fName: Type.String(),
  lName: Type.String(),
  zsr: Type.Optional(Type.String()),
});

/** The organisation the author works in. */
export const HcOrg = Type.Object({
  gln: Type.Optional(Type.String()),
  name: Type.String(),
  street: Type.String(),
  zip: Type.String(),
  city: Type.String(),
  country: Type.Optional(Type.String()),
  zsr: Type.Optional(Type.String()),
});

/** A CHMED23A medication: 1 a medication plan, 3 a prescription. */
export const Medication = Type.Object(
  {
    patient: Patient,
    hcPerson: Type.Optional(HcPerson),
    hcOrg: Type.Optional(HcOrg),
    meds: Type.Optional(Type.Array(Medicament)),
    exts,
    medType: Type.Optional(Type.Integer({ enum: [1, 2, 3] })),
    id: Type.Optional(Type.String()),
    auth: Type.Integer({ enum: [1, 2], description: '1 a healthcare person, 2 the patient.' }),
    rec: Type.Optional(Type.String()),
    dt: Type.String({ description: 'Creation, date-time with offset.' }),
    rmk: Type.Optional(Type.String()),
  },
  { description: 'A CHMED23A document (IG eMediplan), as a reader takes it.' },
);
export type Medication = Static<typeof Medication>;
