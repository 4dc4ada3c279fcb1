/**
 * The signed-in client (`GET /ePrescription/me`): who the bearer token stands for, and for a
 * prescriber with a profile (`erx clients profile`) what the desk prefills into the document.
 */
import Type from 'typebox';
import type { Static } from 'typebox';

/** The practice of a prescriber's profile (CHMED16A `HcOrg`). */
export const PracticeAddress = Type.Object(
  {
    name: Type.String({ description: '`HcOrg.Name`.' }),
    street: Type.String({ description: '`HcOrg.Street`.' }),
    zip: Type.String({ description: '`HcOrg.Zip`, 4 or 5 digits.' }),
    city: Type.String({ description: '`HcOrg.City`.' }),
    phone: Type.Optional(Type.String({ description: '`HcOrg.Phone`.' })),
  },
  {
    $id: 'PracticeAddress',
    additionalProperties: false,
    description: 'The practice a prescriber issues from.',
  },
);
export type PracticeAddress = Static<typeof PracticeAddress>;

/** A prescriber's profile, as the operator set it. */
export const PrescriberProfile = Type.Object(
  {
    first_name: Type.String({ description: '`HcPerson.FName`.' }),
    last_name: Type.String({ description: '`HcPerson.LName`.' }),
    gln: Type.String({
      description: '`HcPerson.Gln` and the document’s `Auth`: 13 digits, check digit verified.',
    }),
    zsr: Type.Optional(
      Type.String({ description: '`HcPerson.Zsr`: one letter and six digits (`A123456`).' }),
    ),
    practice: Type.Optional(PracticeAddress),
  },
  {
    $id: 'PrescriberProfile',
    additionalProperties: false,
    description:
      'What a prescriber’s documents name, set by the operator (`erx clients profile`). A ' +
      'convenience for filling in the document: erx signs the document as sent, whatever it names.',
  },
);
export type PrescriberProfile = Static<typeof PrescriberProfile>;

/** The answer of `GET /ePrescription/me`. */
export const SignedInClient = Type.Object(
  {
    client_id: Type.String(),
    role: Type.Enum(['prescriber', 'pharmacist'], { type: 'string', description: 'The role.' }),
    sub: Type.String({ description: 'Actor id: event `actor` of the caller’s events.' }),
    name: Type.String({ description: 'Display name: event `actor_name`.' }),
    profile: Type.Optional(PrescriberProfile),
    document_format: Type.Enum(['CHMED16A', 'CHMED23A'], {
      type: 'string',
      description:
        'The release the desk composes prescriptions in, as the operator chose it ' +
        '(`ERX_DOCUMENT_FORMAT`); create takes both.',
    }),
  },
  {
    $id: 'SignedInClient',
    additionalProperties: false,
    description:
      'The client the bearer token was issued to, as the token service knows it; `profile` only ' +
      'for a prescriber that has one, registered with the embedded token service.',
  },
);
export type SignedInClient = Static<typeof SignedInClient>;
