/**
 * The service's own messages in the page's language: a violation by its `code` and `params`, an
 * error by its `cause.Code` (SPEC.md §8). A code the page does not know (a newer service) keeps
 * the service's English text.
 */
import type { ErrorBody, Violation } from '../api/types.js';
import type { I18n } from './i18n-context.js';
import type { MessageKey } from './messages-en.js';
import { formatDateTime } from './translate.js';
import type { Params } from './translate.js';

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

// `cause.Code` values whose message needs no value of the answer.
const CAUSE_KEYS: Readonly<Record<string, MessageKey>> = {
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
  };

// Times the refusals name, shown as every date of the page is.
const TIMES = ['since', 'expires_at'];

function isKnown(code: unknown): code is ViolationCode {
  return typeof code === 'string' && Object.hasOwn(VIOLATION_KEYS, code);
}

/** The values of a violation as its text shows them (lists joined, dates and counts readable). */
function shown(v: Violation, i18n: Pick<I18n, 'dateTime'>): Params {
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

/** What `v` breaks, in the page's language; the service's English message for an unknown code. */
export function violationText(v: Violation, i18n: Pick<I18n, 't' | 'dateTime'>): string {
  if (!isKnown(v.code)) return v.message;
  return i18n.t(VIOLATION_KEYS[v.code], shown(v, i18n));
}

/**
 * The refusal of `body` in the page's language, or undefined when its `cause.Code` is one the page
 * does not word itself. Seed §7's `unknown_error` is the fully dispensed refusal only with
 * `forbidden`.
 */
export function causeText(body: ErrorBody, t: I18n['t']): string | undefined {
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
  const key = Object.hasOwn(CAUSE_KEYS, code) ? CAUSE_KEYS[code] : undefined;
  return key === undefined ? undefined : t(key);
}
