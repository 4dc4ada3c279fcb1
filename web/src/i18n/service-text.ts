/**
 * The service's own messages in the page's language: a violation by its `code` and `params`, an
 * error by its `cause.Code` (SPEC.md §8). The catalogues are typed by the service's closed sets of
 * codes, so a new code is a compile error here; a code the page does not know (a newer service)
 * gets a generic sentence in the page's language, never the service's English text.
 */
import type { ErrorBody, ErrorCode, NamedCauseCode, Violation } from '../api/types.js';
import type { MessageKey } from './messages-en.js';
import { formatDateTime } from './date-format.js';

// The page's words as this module needs them: `useI18n()` gives them (kept free of the browser, so
// that the catalogues can be walked in Node).
type Params = Readonly<Record<string, string | number>>;
type Translate = (key: MessageKey, params?: Params) => string;
interface Words {
  t: Translate;
  dateTime(value: string): string;
}

type ViolationCode = Violation['code'];

const VIOLATION_KEYS: Readonly<Record<ViolationCode, MessageKey>> = {
  required: 'violation.required',
  not_allowed: 'violation.not_allowed',
  type: 'violation.type',
  const: 'violation.const',
  one_of: 'violation.one_of',
  pattern: 'violation.pattern',
  gln_digits: 'violation.gln_digits',
  zip_digits: 'violation.zip_digits',
  plain_text: 'violation.plain_text',
  min_length: 'violation.min_length',
  max_length: 'violation.max_length',
  min_items: 'violation.min_items',
  max_items: 'violation.max_items',
  minimum: 'violation.minimum',
  maximum: 'violation.maximum',
  format: 'violation.format',
  invalid: 'violation.invalid',
  not_uuid: 'violation.not_uuid',
  nil_uuid: 'violation.nil_uuid',
  repeated_id: 'violation.repeated_id',
  expired: 'violation.expired',
  unreadable_date: 'violation.unreadable_date',
  not_percent_encoded: 'violation.not_percent_encoded',
  given_twice: 'violation.given_twice',
  only_with_force: 'violation.only_with_force',
  unknown_medicament: 'violation.unknown_medicament',
  not_a_cursor: 'violation.not_a_cursor',
  visible_ascii: 'violation.visible_ascii',
  text_length: 'violation.text_length',
};

/** Every `cause.Code` the service answers but its operator tools' ones, worded without values. */
export const CAUSE_KEYS: Readonly<Record<ErrorCode | NamedCauseCode, MessageKey>> = {
  bad_request: 'error.bad_request',
  unauthorized: 'error.unauthorized',
  forbidden: 'error.forbidden',
  not_found: 'error.not_found',
  conflict: 'error.conflict',
  locked: 'error.locked',
  payload_too_large: 'error.payload_too_large',
  unsupported_media_type: 'error.unsupported_media_type',
  too_many_requests: 'error.too_many_requests',
  service_unavailable: 'error.service_unavailable',
  internal_error: 'error.internal_error',
  // Seed §7's fully dispensed refusal with `forbidden` (see causeText); anything else is unknown.
  unknown_error: 'error.internal_error',
  revoked: 'cause.revoked',
  already_revoked: 'cause.already_revoked',
  expired: 'cause.expired',
  already_locked: 'cause.already_locked',
  not_locked: 'cause.not_locked',
  wrong_role: 'cause.wrong_role',
  not_owner: 'cause.not_owner',
  not_cancellable: 'cause.not_cancellable',
  substitution_not_allowed: 'cause.substitution_not_allowed',
  quantity_exceeded: 'cause.quantity_exceeded',
  unknown_medicament: 'cause.unknown_medicament',
  invalid_document: 'cause.invalid_document',
  idempotency_key_reused: 'cause.idempotency_key_reused',
  invalid_token: 'cause.invalid_token',
  invalid_client: 'cause.invalid_client',
  invalid_request: 'cause.invalid_request',
  unsupported_grant_type: 'cause.unsupported_grant_type',
  not_a_prescriber: 'cause.not_a_prescriber',
  sub_has_other_role: 'cause.sub_has_other_role',
  ledger_corrupt: 'cause.ledger_corrupt',
  no_checkpoint: 'cause.no_checkpoint',
  tile_not_found: 'cause.tile_not_found',
  too_large_for_qr: 'cause.too_large_for_qr',
  too_many_streams: 'cause.too_many_streams',
  chain_full: 'cause.chain_full',
  too_many_events: 'cause.too_many_events',
  too_long: 'cause.link.too_long',
  empty: 'cause.link.empty',
  bad_character: 'cause.link.bad_character',
  no_fragment: 'cause.link.damaged',
  bad_fragment: 'cause.link.damaged',
  bad_base_url: 'cause.link.damaged',
  bad_prefix: 'cause.link.damaged',
  bad_data: 'cause.link.damaged',
  bad_field_order: 'cause.link.damaged',
  bad_issuer: 'cause.link.damaged',
  bad_time: 'cause.link.damaged',
  bad_signature_format: 'cause.link.damaged',
  foreign_link: 'cause.foreign_link',
};

// A violation of `type` worded by the one JSON type it asks for.
const TYPE_KEYS: Readonly<Record<string, MessageKey>> = {
  string: 'violation.type.string',
  number: 'violation.type.number',
  integer: 'violation.type.integer',
  boolean: 'violation.type.boolean',
  array: 'violation.type.array',
  object: 'violation.type.object',
};

/**
 * `cause.Code` values worded with the values the answer's `params` carries (a lock holder, a time);
 * `needs` lists them. Without them (an older service), the plain wording above, if any, applies.
 */
const CAUSES_WITH_VALUES: Readonly<Record<string, { key: MessageKey; needs: readonly string[] }>> =
  {
    locked: { key: 'cause.locked', needs: ['holder', 'since'] },
    already_locked: { key: 'cause.alreadyLockedBy', needs: ['holder'] },
    expired: { key: 'cause.expiredAt', needs: ['expires_at'] },
    quantity_exceeded: {
      key: 'cause.quantityExceededBy',
      needs: ['medicament', 'amount', 'remaining', 'prescribed'],
    },
    substitution_not_allowed: { key: 'cause.substitutionNotAllowedFor', needs: ['medicament'] },
    foreign_link: { key: 'cause.foreignLinkFrom', needs: ['host'] },
  };

// Times the refusals name, shown as every date of the page is.
const TIMES = ['since', 'expires_at'];

function isKnown(code: unknown): code is ViolationCode {
  return typeof code === 'string' && Object.hasOwn(VIOLATION_KEYS, code);
}

/** The values of a violation as its text shows them (lists joined, dates and counts readable). */
function shown(v: Violation, i18n: Pick<Words, 'dateTime'>): Params {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(v.params ?? {})) {
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const index = v.params?.['index'];
  if (typeof index === 'number') out['n'] = index + 1;
  const expiresAt = v.params?.['expires_at'];
  if (typeof expiresAt === 'string') out['date'] = i18n.dateTime(expiresAt);
  return out;
}

/** The key of `v`: its code's, a type by the type asked for; a generic one for an unknown code. */
function violationKey(v: Violation): MessageKey {
  if (!isKnown(v.code)) return 'violation.unknown';
  const types = v.params?.['type'];
  const type = Array.isArray(types) && types.length === 1 ? types[0] : types;
  if (v.code === 'type' && typeof type === 'string' && Object.hasOwn(TYPE_KEYS, type)) {
    return TYPE_KEYS[type]!;
  }
  return VIOLATION_KEYS[v.code];
}

/** What `v` breaks, in the page's language, also for a code the page does not know. */
export function violationText(v: Violation, i18n: Words): string {
  return i18n.t(violationKey(v), shown(v, i18n));
}

/**
 * The refusal of `body` in the page's language, or undefined when its `cause.Code` is one the page
 * does not word itself. Seed §7's `unknown_error` is the fully dispensed refusal only with
 * `forbidden`.
 */
export function causeText(body: ErrorBody, t: Translate): string | undefined {
  const code = body.cause?.Code;
  if (code === 'unknown_error' && body.error_code === 'forbidden') {
    return t('cause.already_dispensed');
  }
  if (typeof code !== 'string') return undefined;
  const withValues = Object.hasOwn(CAUSES_WITH_VALUES, code) ? CAUSES_WITH_VALUES[code] : undefined;
  const values = body.params ?? {};
  if (withValues && withValues.needs.every((name) => values[name] !== undefined)) {
    const shown: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(values)) {
      const text = Array.isArray(value) ? value.join(', ') : value;
      shown[name] = TIMES.includes(name) && typeof text === 'string' ? formatDateTime(text) : text;
    }
    shown['date'] = shown['expires_at'] ?? '';
    return t(withValues.key, shown);
  }
  const key = Object.hasOwn(CAUSE_KEYS, code) ? CAUSE_KEYS[code as NamedCauseCode] : undefined;
  return key === undefined ? undefined : t(key);
}
