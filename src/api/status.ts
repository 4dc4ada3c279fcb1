/**
 * The status call for the holder of a genuine link (SPEC.md §10 "Who sees what"): the short verify
 * answer plus what the patient may know of their own prescription, its validity end and the
 * packages left; for any other link exactly the anonymous verify answer.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { VerifyShort, shortFields } from './verify.js';

/** One medicament's packages as the link holder sees them: no substitution rule, no events. */
export const PackagesLeft = Type.Object(
  {
    id: Type.String({ description: 'The medicament `Id` of the document.' }),
    prescribed: Type.Integer({
      description:
        'Packages: (NbPack ?? 1) × (1 + (Rep ?? 0)); CHMED23A: nbPack × (1 + reps.v), see docs/decisions.md.',
    }),
    dispensed: Type.Integer({ description: 'Packages dispensed by the events that stand.' }),
    remaining: Type.Integer({ minimum: 0, description: 'Packages left; never below 0.' }),
  },
  { $id: 'PackagesLeft', additionalProperties: false },
);
export type PackagesLeft = Static<typeof PackagesLeft>;

/** The status of a genuine link: the short answer, the validity end and the packages left. */
export const PrescriptionStatus = Type.Object(
  {
    ...shortFields,
    expires_at: Type.String({ description: 'When the prescription expires, UTC (SPEC.md §10).' }),
    expired: Type.Boolean(),
    medicaments: Type.Array(PackagesLeft, { description: 'In document order.' }),
  },
  {
    $id: 'PrescriptionStatus',
    additionalProperties: false,
    description:
      'For a link whose signature verifies, whose document hash is the recorded one and whose ' +
      'chain passes its checks: what its holder may know of the prescription.',
  },
);
export type PrescriptionStatus = Static<typeof PrescriptionStatus>;

/** Either the status of a genuine link or, for any other link, the anonymous verify answer. */
export const StatusResult = Type.Union([PrescriptionStatus, VerifyShort], {
  $id: 'StatusResult',
  description:
    'The status for the holder of a genuine link; for any other link exactly what the ' +
    'anonymous verify answers (a link whose signature fails: every flag false, nothing read).',
});
export type StatusResult = Static<typeof StatusResult>;
