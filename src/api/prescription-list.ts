/**
 * The prescriber's list (`GET /ePrescription/prescriptions`): the prescriptions the caller issued,
 * in id order, each with the state verify's variant with transactions shows (SPEC.md §10), read
 * from the store without the link. No patient data is kept, so none is listed.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { MedicamentStatus, completionAndLock } from './verify.js';
import { onTheWire } from './wire.js';

/** The states the list can be narrowed to. */
export const LIST_STATES = ['open', 'dispensed', 'revoked', 'expired'] as const;
export type ListState = (typeof LIST_STATES)[number];

/** The smallest, default and largest page. */
export const LIST_LIMIT = { min: 1, default: 20, max: 100 } as const;

/** The query of the list: where to start, how many, which state. */
export const PrescriptionListQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Start after this prescription id (the `next` of the previous page).',
      }),
    ),
    limit: Type.Optional(
      onTheWire(
        Type.String({
          pattern: '^(100|[1-9][0-9]?)$',
          description: `At most this many prescriptions, ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (default ${LIST_LIMIT.default}).`,
        }),
        { type: 'integer', minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max },
      ),
    ),
    state: Type.Optional(
      Type.Enum(LIST_STATES, {
        type: 'string',
        description:
          'Only prescriptions whose flag of this name is true; `open`: neither revoked, nor ' +
          'dispensed, nor expired. A page scans at most 5 × `limit` prescriptions, so it may ' +
          'hold fewer than `limit` and still have a `next`.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PrescriptionListQuery = Static<typeof PrescriptionListQuery>;

/** One prescription of the list. */
export const ListedPrescription = Type.Object(
  {
    prescription_id: Type.String(),
    issued_at: Type.String({ description: 'Date-time with UTC offset, as verify shows it.' }),
    expires_at: Type.String({ description: 'When the prescription expires, UTC (SPEC.md §10).' }),
    valid: Type.Boolean({
      description:
        'The chain passes every check of `logs_check_passed` and the stored terms (medicaments, ' +
        'expiry, issuer) are the signed ones of its create event: what the store alone can ' +
        'check of verify’s `valid`. Says nothing of revoked or expired (see those flags); ' +
        'verify with the link remains the full check.',
    }),
    logs_check_passed: Type.Boolean({
      description: 'The chain’s hashes, links, signatures and head check (SPEC.md §6).',
    }),
    revoked: Type.Boolean(),
    dispensed: Type.Boolean(),
    ...completionAndLock,
    expired: Type.Boolean(),
    medicaments: Type.Array(MedicamentStatus, { description: 'In document order.' }),
  },
  {
    $id: 'ListedPrescription',
    additionalProperties: false,
    description:
      'A prescription the caller issued, with the flags of verify’s variant with transactions. ' +
      'A chain that fails its checks is listed with `valid` false and the state its readable ' +
      'events show.',
  },
);
export type ListedPrescription = Static<typeof ListedPrescription>;

/** One page of the list. */
export const PrescriptionList = Type.Object(
  {
    prescriptions: Type.Array(ListedPrescription, { description: 'In id order.' }),
    next: Type.Optional(
      Type.String({
        description: 'Pass as `after` for the next page; absent when no prescription is left.',
      }),
    ),
  },
  {
    $id: 'PrescriptionList',
    additionalProperties: false,
    description: 'The prescriptions the calling prescriber issued, one page.',
  },
);
export type PrescriptionList = Static<typeof PrescriptionList>;
