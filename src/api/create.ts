/** The create call (SPEC.md §5): a CHMED16A document in, the signed link (or its QR code) out. */
import Type from 'typebox';
import type { Static } from 'typebox';
import { prescriptionSchema } from '../chmed16a/schema.js';
import { Chmed23Prescription } from '../chmed23a/profile.js';
import type { Prescription as PrescriptionDocument } from '../chmed16a/types.js';
import { RECEIPT_DESCRIPTION } from './events.js';
import { onTheWire } from './wire.js';

const OPEN =
  'Fields beyond those listed are accepted and kept in the link as sent (SPEC.md §4: real ' +
  'CHMED16A documents carry more, e.g. `Patient.City`, `Pos.DtFrom`).';

/** A nested object of the document under its CHMED16A name, open as the server is. */
function named<T extends object>(schema: T, $id: string, what: string): T {
  return { ...schema, $id, additionalProperties: true, description: `${what} ${OPEN}` };
}

const { properties: top } = prescriptionSchema;

/** `Pos`: one posology of a medicament. */
export const Pos = named(top.Medicaments.items.properties.Pos.items, 'Pos', 'One posology.');

/** `Medicament`: one prescribed medicament. */
export const Medicament = named(
  {
    ...top.Medicaments.items,
    properties: {
      ...top.Medicaments.items.properties,
      Pos: { ...top.Medicaments.items.properties.Pos, items: Pos },
    },
  },
  'Medicament',
  'One prescribed medicament.',
);

/** `Patient`, `HcPerson` (the prescriber) and `HcOrg` (the practice). */
export const Patient = named(top.Patient, 'Patient', 'The patient.');
export const HcPerson = named(top.HcPerson, 'HcPerson', 'The prescribing person.');
export const HcOrg = named(top.HcOrg, 'HcOrg', 'The practice.');

/**
 * The CHMED16A document (seed §2.1): the schema of `chmed16a/schema.ts` with its nested objects
 * named, so a generated client has one type per object. The top level is closed (unknown fields
 * are refused); the nested objects are open.
 */
export const Prescription = Type.Unsafe<PrescriptionDocument>({
  ...prescriptionSchema,
  properties: {
    ...top,
    Patient,
    HcPerson,
    HcOrg,
    Medicaments: { ...top.Medicaments, items: Medicament },
  },
  $id: 'Prescription',
});
export type Prescription = Static<typeof Prescription>;

/**
 * The CHMED23A prescription (IG eMediplan), as the profile of `chmed23a/profile.ts` takes it; an
 * object with CHMED16A's `Medicaments` or `MedType` is read as CHMED16A (`http/read-bodies.ts`),
 * so it is no CHMED23A body, whatever else it holds.
 */
export const Chmed23aPrescription = Type.Unsafe<Static<typeof Chmed23Prescription>>({
  ...Chmed23Prescription,
  not: { anyOf: [{ required: ['Medicaments'] }, { required: ['MedType'] }] },
  $id: 'Chmed23aPrescription',
});
export type Chmed23aPrescription = Static<typeof Chmed23aPrescription>;

/** The document as its ChTransmissionFormat string (CHMED16A0, CHMED16A1 or CHMED23A.). */
export const TransmissionString = Type.String({
  $id: 'TransmissionString',
  minLength: 1,
  description:
    'The document as its ChTransmissionFormat string, `CHMED16A0…`, `CHMED16A1…` or ' +
    '`CHMED23A.…` (the prefix in any case; raw with `text/plain`, or as a JSON string); the ' +
    'release is read from the prefix. A CHMED23A string is carried in the link exactly as sent.',
});

/**
 * The document in either release, as JSON, or its ChTransmissionFormat string: exactly one of the
 * three matches a body (docs/decisions.md "The create body as a union told apart by required
 * fields"). The CHMED16A object is closed and requires `Medicaments` and `MedType`; the CHMED23A
 * object requires `meds` and `medType`; the string is no object. No one property names the
 * release in both (they differ in case), so OpenAPI's `discriminator` cannot be used.
 */
export const CreateBody = Type.Unsafe<Prescription | Chmed23aPrescription | string>({
  oneOf: [Prescription, Chmed23aPrescription, TransmissionString],
  $id: 'CreateBody',
  description:
    'The prescription document in one of two releases, exactly one of: `Prescription` (CHMED16A, ' +
    'seed §2.1: requires `Medicaments` and `MedType`, no other top-level fields), ' +
    '`Chmed23aPrescription` (CHMED23A, IG eMediplan: requires `meds` and `medType`; a JSON ' +
    'object is read as CHMED23A when it has `meds` or `medType` and neither `Medicaments` nor ' +
    '`MedType`) or `TransmissionString` (either release as its string).',
});
export type CreateBody = Static<typeof CreateBody>;

/**
 * The named bodies a route hands to the service unchecked: the service judges them and names every
 * violation (SPEC.md §4), so the route compiles no validator for them (`http/validator-factory.ts`).
 */
export const BODIES_JUDGED_BY_THE_SERVICE: ReadonlySet<string> = new Set([
  (CreateBody as { $id?: string }).$id ?? '',
]);

export const CreateQuery = Type.Object({
  'output-format': Type.Optional(
    Type.Enum(['data', 'qrcode', 'svg'], {
      type: 'string',
      description:
        '`data`: JSON; `qrcode` (default): PNG; `svg`: SVG. A link that needs several QR codes ' +
        '(`SignedPrescriptionParts`) is one image of all of them, stacked in order, `k/N` under each.',
    }),
  ),
  size: Type.Optional(
    onTheWire(
      Type.String({ pattern: '^[0-9]{1,4}$', description: 'PNG width in pixels, 64..2048' }),
      { type: 'integer', minimum: 64, maximum: 2048 },
    ),
  ),
});
export type CreateQuery = Static<typeof CreateQuery>;

/** The answer to create with `output-format=data`. */
export const CreateResult = Type.Object(
  {
    SignedPrescriptionData: Type.String({ description: 'The link, the content of the QR code.' }),
    SignedPrescriptionParts: Type.Optional(
      Type.Array(Type.String(), {
        minItems: 2,
        description:
          'Only for a CHMED23A link too large for one QR code: the link as part links, in order, ' +
          'each the content of one QR code (`…#CHMED23A.k/n.<slice>&i=…&t=…&s=…`, the same `i`, ' +
          '`t` and `s` as the link, whose signature covers the whole). Verify takes them in any ' +
          'order.',
      }),
    ),
    prescription_id: Type.String(),
    receipt: Type.Optional(Type.String({ description: RECEIPT_DESCRIPTION })),
  },
  { $id: 'CreateResult', description: 'The signed link and the prescription id.' },
);
export type CreateResult = Static<typeof CreateResult>;

const STACKED =
  'A link too large for one code: the codes of its part links in one image, stacked in order, ' +
  '`k/N` under each, each `size` pixels wide.';

/** The answer to create with `output-format=qrcode`: the link as a PNG QR code (or its parts'). */
export const QrCodePng = Type.String({
  $id: 'QrCodePng',
  contentMediaType: 'image/png',
  description: `The link as a QR code. ${STACKED}`,
});

/** The answer to create with `output-format=svg`: the link as an SVG QR code (or its parts'). */
export const QrCodeSvg = Type.String({
  $id: 'QrCodeSvg',
  contentMediaType: 'image/svg+xml',
  description: `The link as a QR code. ${STACKED}`,
});
