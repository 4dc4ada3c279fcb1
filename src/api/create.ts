/** The create call (SPEC.md §5): a CHMED16A document in, the signed link (or its QR code) out. */
import Type from 'typebox';
import type { Static } from 'typebox';
import { prescriptionSchema } from '../chmed16a/schema.js';
import type { Prescription as PrescriptionDocument } from '../chmed16a/types.js';
import { RECEIPT_DESCRIPTION } from './events.js';

/** The CHMED16A document (seed §2.1), the schema of `chmed16a/schema.ts` under a name. */
export const Prescription = Type.Unsafe<PrescriptionDocument>({
  ...prescriptionSchema,
  $id: 'Prescription',
});
export type Prescription = Static<typeof Prescription>;

/** The document as JSON, or its `CHMED16A0`/`CHMED16A1` string (raw or as a JSON string). */
export const CreateBody = Type.Union([Prescription, Type.String()], {
  $id: 'CreateBody',
  description:
    'The CHMED16A prescription document as JSON, or its CHMED16A0/CHMED16A1 string (raw or ' +
    'as a JSON string).',
});
export type CreateBody = Static<typeof CreateBody>;

export const CreateQuery = Type.Object({
  'output-format': Type.Optional(
    Type.Enum(['data', 'qrcode', 'svg'], {
      type: 'string',
      description: '`data`: JSON; `qrcode` (default): PNG; `svg`: SVG.',
    }),
  ),
  size: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,4}$', description: 'PNG width in pixels, 64..2048' }),
  ),
});
export type CreateQuery = Static<typeof CreateQuery>;

/** The answer to create with `output-format=data`. */
export const CreateResult = Type.Object(
  {
    SignedPrescriptionData: Type.String({ description: 'The link, the content of the QR code.' }),
    prescription_id: Type.String(),
    receipt: Type.Optional(Type.String({ description: RECEIPT_DESCRIPTION })),
  },
  { $id: 'CreateResult', description: 'The signed link and the prescription id.' },
);
export type CreateResult = Static<typeof CreateResult>;

/** The answer to create with `output-format=qrcode`: the link as a PNG QR code. */
export const QrCodePng = Type.String({ $id: 'QrCodePng', contentMediaType: 'image/png' });

/** The answer to create with `output-format=svg`: the link as an SVG QR code. */
export const QrCodeSvg = Type.String({ $id: 'QrCodeSvg', contentMediaType: 'image/svg+xml' });
