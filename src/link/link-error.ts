/**
 * The typed failure of reading or writing a prescription link. Every malformed link is a
 * `bad_request` (SPEC.md §6: "a link that cannot be parsed ... ⇒ 400"); `reason` says which rule
 * it broke and is answered as `cause.Code`, so integrators can tell the cases apart.
 */
import { ReasonedError } from '../errors.js';

/** Why a link was refused. */
export type LinkErrorReason =
  | 'too_long'
  | 'empty'
  | 'bad_character'
  | 'no_fragment'
  | 'bad_fragment'
  | 'bad_base_url'
  | 'bad_prefix'
  | 'bad_data'
  | 'bad_field_order'
  | 'bad_issuer'
  | 'bad_time'
  | 'bad_signature_format';

/** All reasons, in a stable order (for registries and tests). */
export const LINK_ERROR_REASONS: readonly LinkErrorReason[] = Object.freeze([
  'too_long',
  'empty',
  'bad_character',
  'no_fragment',
  'bad_fragment',
  'bad_base_url',
  'bad_prefix',
  'bad_data',
  'bad_field_order',
  'bad_issuer',
  'bad_time',
  'bad_signature_format',
]);

// Fixed client-facing text; the link itself is never echoed or logged, as it carries patient data.
const MESSAGES: Record<LinkErrorReason, string> = {
  too_long: 'The prescription link is too long.',
  empty: 'The prescription link is empty.',
  bad_character: 'The prescription link contains a character that is not allowed.',
  no_fragment: 'The prescription link has no "#" fragment.',
  bad_fragment: 'The prescription link has more than one "#".',
  bad_base_url: 'The address before "#" in the prescription link is not valid.',
  bad_prefix: 'The prescription link does not carry a CHMED16A0, CHMED16A1 or CHMED23A document.',
  bad_data: 'The prescription document in the link is empty.',
  bad_field_order: 'The prescription link must carry exactly the fields i, t and s, in this order.',
  bad_issuer: 'The issuer (i) of the prescription link is not valid.',
  bad_time: 'The issue time (t) of the prescription link is not valid.',
  bad_signature_format:
    'The signature (s) of the prescription link is not 128 lowercase hex digits.',
};

/** A malformed prescription link (or link part): code `bad_request`, `reason` the broken rule. */
export class LinkError extends ReasonedError<LinkErrorReason> {
  constructor(reason: LinkErrorReason) {
    super('bad_request', reason, MESSAGES, { causeCode: reason, detail: { reason } });
  }
}
