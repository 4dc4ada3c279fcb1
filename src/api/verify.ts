/** The verify call (seed §2.3, §4.2; SPEC.md §6): the link in, one of two variants out. */
import Type from 'typebox';
import type { Static } from 'typebox';
import { EventView, PartialDispensation } from './events.js';

/** The link as it stands: raw text (even under `application/json`) or a JSON string. */
export const VerifyBody = Type.String({
  $id: 'VerifyBody',
  description:
    'The complete QR code string (the link), sent as it stands (raw, even under ' +
    'application/json) or as a JSON string. A CHMED23A link on several QR codes may be sent as ' +
    'its part links instead, in any order: one on each line of the raw text, or a JSON array of ' +
    'strings; missing or repeated parts are refused with 400, naming them in `params`.',
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

/** The six fields of the short answer (seed §2.3), shared by the answers built on it. */
export const shortFields = {
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
  additionalProperties: false,
  description:
    'The verify result without transactions: no bearer token, or one of neither a pharmacist ' +
    'nor the issuing prescriber. A link whose signature fails has valid, revoked and dispensed ' +
    'false, whether its id exists or not.',
});
export type VerifyShort = Static<typeof VerifyShort>;

/** One medicament's packages in the verify answer with transactions (SPEC.md §10). */
export const MedicamentStatus = Type.Object(
  {
    id: Type.String({ description: 'The medicament `Id` of the document.' }),
    prescribed: Type.Integer({
      description:
        'Packages: (NbPack ?? 1) × (1 + (Rep ?? 0)); CHMED23A: nbPack × (1 + reps.v), see docs/decisions.md.',
    }),
    dispensed: Type.Integer({ description: 'Packages dispensed by the events that stand.' }),
    remaining: Type.Integer({ minimum: 0, description: 'Packages left; never below 0.' }),
    substitution_allowed: Type.Boolean({
      description: 'False when the document says `Subs: 1` (CHMED23A `isNotSub: true`).',
    }),
  },
  { $id: 'MedicamentStatus', additionalProperties: false },
);
export type MedicamentStatus = Static<typeof MedicamentStatus>;

/** Who completed the dispensation and who holds the lock, as verify and the list show them. */
export const completionAndLock = {
  dispensed_at: Type.Optional(
    Type.String({ description: 'When dispensed: the time of the event that completed it, UTC.' }),
  ),
  dispensed_by: Type.Optional(
    Type.String({
      description:
        'When dispensed: the actor id of the event that completed it (e.g. `HIN|pharma1`, as HIN answers).',
    }),
  ),
  locked: Type.Boolean(),
  locked_at: Type.Optional(
    Type.String({ description: 'Time of the lock event, UTC; present when locked.' }),
  ),
  locked_by: Type.Optional(
    Type.String({ description: 'The lock holder (actor name); present when locked.' }),
  ),
};

/** The verify answer with transactions: a pharmacist's or the issuer's (seed §2.3, SPEC.md §10). */
export const VerifyFull = Type.Object(
  {
    ...shortFields,
    ...completionAndLock,
    expires_at: Type.String({ description: 'When the prescription expires, UTC (SPEC.md §10).' }),
    expired: Type.Boolean(),
    medicaments: Type.Array(MedicamentStatus, { description: 'In document order.' }),
    partial_dispensations: Type.Array(PartialDispensation),
    events: Type.Array(EventView),
    tampering_detection_result: TamperingDetectionResult,
  },
  {
    $id: 'VerifyFull',
    description: 'The verify result with transactions: for a pharmacist or the issuing prescriber.',
  },
);
export type VerifyFull = Static<typeof VerifyFull>;

/**
 * Either variant, exactly one of which matches an answer (the short one is closed); a client tells
 * them apart by `tampering_detection_result`, which only the one with transactions has.
 */
export const VerifyResult = Type.Unsafe<Static<typeof VerifyFull> | Static<typeof VerifyShort>>({
  oneOf: [VerifyFull, VerifyShort],
  $id: 'VerifyResult',
  description:
    'The verify result (seed §2.3): `VerifyFull` (with `tampering_detection_result` and the ' +
    'transactions) for a pharmacist or the issuing prescriber, else `VerifyShort`.',
});
export type VerifyResult = Static<typeof VerifyResult>;
