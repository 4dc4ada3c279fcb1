/** The verify call (seed §2.3, §4.2; SPEC.md §6): the link in, one of two variants out. */
import Type from 'typebox';
import type { Static } from 'typebox';
import { EventView, PartialDispensation } from './events.js';

/** The link as it stands: raw text (even under `application/json`) or a JSON string. */
export const VerifyBody = Type.String({
  $id: 'VerifyBody',
  description:
    'The complete QR code string (the link), sent as it stands (raw, even under ' +
    'application/json) or as a JSON string.',
});

/** The three tamper checks (seed §2.3, SPEC.md §6). */
export const TamperingDetectionResult = Type.Object(
  {
    prescription_url_valid: Type.Boolean(),
    prescription_hash_check_passed: Type.Boolean(),
    logs_check_passed: Type.Boolean(),
  },
  { $id: 'TamperingDetectionResult' },
);
export type TamperingDetectionResult = Static<typeof TamperingDetectionResult>;

const shortFields = {
  prescription_id: Type.String(),
  issued_at: Type.String({ description: 'Date-time with UTC offset.' }),
  issued_by: Type.String({ description: 'Issuer label.' }),
  valid: Type.Boolean(),
  revoked: Type.Boolean(),
  dispensed: Type.Boolean(),
};

/** The verify answer without transactions: no bearer token sent (seed §2.3). */
export const VerifyShort = Type.Object(shortFields, {
  $id: 'VerifyShort',
  description: 'The verify result without transactions (no bearer token sent).',
});
export type VerifyShort = Static<typeof VerifyShort>;

/** The verify answer with transactions: a valid bearer token sent (seed §2.3). */
export const VerifyFull = Type.Object(
  {
    ...shortFields,
    locked: Type.Boolean(),
    locked_at: Type.Optional(
      Type.String({ description: 'Time of the lock event, UTC; present when locked.' }),
    ),
    partial_dispensations: Type.Array(PartialDispensation),
    events: Type.Array(EventView),
    tampering_detection_result: TamperingDetectionResult,
  },
  {
    $id: 'VerifyFull',
    description: 'The verify result with transactions (a valid bearer token sent).',
  },
);
export type VerifyFull = Static<typeof VerifyFull>;

/** Either variant; the one with transactions first, as it is the one with more fields. */
export const VerifyResult = Type.Union([VerifyFull, VerifyShort], {
  $id: 'VerifyResult',
  description: 'The verify result (seed §2.3): with transactions when a bearer token was sent.',
});
export type VerifyResult = Static<typeof VerifyResult>;
