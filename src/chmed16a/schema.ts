/**
 * The JSON Schema of a CHMED16A prescription document, exactly the rules of seed §2.1 and
 * SPEC.md §4. Plain data without `$id` or `$schema`: it is compiled by Ajv here and published in
 * the OpenAPI 3.1 document, so it uses only keywords both read the same way.
 */

/** Exactly 13 digits: `Auth` and `HcPerson.Gln` (seed §2.1, §8). */
export const THIRTEEN_DIGITS = '^[0-9]{13}$';

/** 4 or 5 digits: `Patient.Zip`, `HcOrg.Zip` (seed §2.1, §8). */
export const ZIP_CODE = '^[0-9]{4,5}$';

/**
 * No control character (C0, DEL, C1): a medicament `Id`, and the dispensed item's `id` that names
 * one. An `Id` is kept in signed events for good and shown wherever the prescription is; an escape
 * in it would rewrite the terminal or the log line that shows it.
 */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

const zsr = { type: 'string', maxLength: 7 } as const;

// Nested objects list their fields but stay open (no `additionalProperties`): real CHMED16A
// documents carry more, e.g. `Patient.City` or `Pos.DtFrom` (SPEC.md §4).
const patient = {
  type: 'object',
  required: ['FName', 'LName', 'BDt'],
  properties: {
    FName: { type: 'string' },
    LName: { type: 'string' },
    BDt: { type: 'string' },
    Gender: { type: 'integer', enum: [1, 2] },
    Street: { type: 'string' },
    Zip: { type: 'string', pattern: ZIP_CODE },
    Ids: { type: 'array' },
  },
} as const;

const hcPerson = {
  type: 'object',
  required: ['FName', 'LName', 'Gln'],
  properties: {
    Gln: { type: 'string', pattern: THIRTEEN_DIGITS },
    FName: { type: 'string' },
    LName: { type: 'string' },
    Zsr: zsr,
  },
} as const;

const hcOrg = {
  type: 'object',
  required: ['Name', 'Street', 'Zip', 'City'],
  properties: {
    Name: { type: 'string' },
    NameAffix: { type: 'string' },
    Street: { type: 'string' },
    Zip: { type: 'string', pattern: ZIP_CODE },
    City: { type: 'string' },
    Country: { type: 'string' },
    Zsr: zsr,
    Phone: { type: 'string' },
    Email: { type: 'string' },
  },
} as const;

const pos = {
  type: 'object',
  required: ['D'],
  properties: {
    D: { type: 'array', minItems: 1, maxItems: 4, items: { type: 'number' } },
    DtTo: { type: 'string', format: 'date' },
  },
} as const;

const medicament = {
  type: 'object',
  required: ['Id', 'IdType'],
  properties: {
    Id: { type: 'string', pattern: NO_CONTROL_CHARACTERS },
    IdType: { type: 'integer', enum: [1, 2, 3] },
    Pos: { type: 'array', minItems: 1, items: pos },
    Unit: { type: 'string' },
    AppInstr: { type: 'string' },
    Rep: { type: 'integer', minimum: 0, maximum: 24 },
    NbPack: { type: 'integer' },
    Subs: { type: 'integer', enum: [0, 1] },
  },
  // Seed §2.1: Unit is required when Pos is present with at least 1 item.
  if: { required: ['Pos'], properties: { Pos: { type: 'array', minItems: 1 } } },
  then: { required: ['Unit'] },
} as const;

/** The prescription document schema (seed §2.1): top level closed, nested objects open. */
export const prescriptionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Patient', 'Medicaments', 'MedType', 'Id', 'Auth', 'Dt'],
  properties: {
    rev: { type: 'integer' },
    Patient: patient,
    HcPerson: hcPerson,
    HcOrg: hcOrg,
    Medicaments: { type: 'array', minItems: 1, items: medicament },
    MedType: { type: 'number', const: 3 },
    Id: { type: 'string' },
    Auth: { type: 'string', pattern: THIRTEEN_DIGITS },
    Zsr: { type: 'string' },
    Dt: { type: 'string', format: 'date-time' },
    Rmk: { type: 'string' },
    PFields: { type: 'array' },
    PSchema: { type: 'string' },
  },
  // Seed §2.1 and §9: rev 2 or 3 makes HcOrg required.
  if: { required: ['rev'], properties: { rev: { enum: [2, 3] } } },
  then: { required: ['HcOrg'] },
} as const;
