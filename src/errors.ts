/**
 * The closed set of erx error codes (SPEC.md §8) and the one error class that carries them, with
 * the one shape of its typed subclasses ({@link ReasonedError}). The domain throws these; only
 * `src/http` turns a code into a status (see `http/status.ts`).
 */

/** Every `error_code` erx ever answers with. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'locked'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'service_unavailable'
  | 'internal_error';

/** All codes, in a stable order (for registries and tests). */
export const ERROR_CODES: readonly ErrorCode[] = Object.freeze([
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'locked',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'service_unavailable',
  'internal_error',
]);

/**
 * What a violation breaks, for a client to word it in its own language: the schema keyword
 * (`required`, `pattern`, `max_length`, ...), or the named rule where one is known (`gln_digits`,
 * `zip_digits`, `not_uuid`, ...). `message` stays the English sentence.
 */
export type ViolationCode =
  | 'required'
  | 'not_allowed'
  | 'type'
  | 'const'
  | 'one_of'
  | 'pattern'
  | 'gln_digits'
  | 'zip_digits'
  | 'plain_text'
  | 'min_length'
  | 'max_length'
  | 'min_items'
  | 'max_items'
  | 'minimum'
  | 'maximum'
  | 'format'
  | 'invalid'
  | 'not_uuid'
  | 'nil_uuid'
  | 'repeated_id'
  | 'expired'
  | 'unreadable_date'
  | 'not_percent_encoded'
  | 'given_twice'
  | 'only_with_force'
  | 'unknown_medicament'
  | 'not_a_cursor'
  | 'visible_ascii'
  | 'text_length';

/** All violation codes, in a stable order (for the OpenAPI enum and tests). */
export const VIOLATION_CODES: readonly ViolationCode[] = Object.freeze([
  'required',
  'not_allowed',
  'type',
  'const',
  'one_of',
  'pattern',
  'gln_digits',
  'zip_digits',
  'plain_text',
  'min_length',
  'max_length',
  'min_items',
  'max_items',
  'minimum',
  'maximum',
  'format',
  'invalid',
  'not_uuid',
  'nil_uuid',
  'repeated_id',
  'expired',
  'unreadable_date',
  'not_percent_encoded',
  'given_twice',
  'only_with_force',
  'unknown_medicament',
  'not_a_cursor',
  'visible_ascii',
  'text_length',
]);

/**
 * Every `cause.Code` erx answers besides the error codes themselves (an error without a finer
 * reason has its error code as `cause.Code`): the refusals of the prescription rules, of sign-in
 * and of the log, why a link was refused (`link/link-error.ts`) and that another service issued
 * it (`foreign_link`, `link/foreign.ts`). A client words a refusal by
 * it (the web page's catalogue is typed by it), so a new one is a compile error there.
 */
const NAMED_CAUSES = {
  unknown_error: true,
  revoked: true,
  already_revoked: true,
  expired: true,
  already_locked: true,
  not_locked: true,
  wrong_role: true,
  not_owner: true,
  not_cancellable: true,
  substitution_not_allowed: true,
  quantity_exceeded: true,
  unknown_medicament: true,
  invalid_document: true,
  idempotency_key_reused: true,
  invalid_token: true,
  invalid_client: true,
  invalid_request: true,
  unsupported_grant_type: true,
  not_a_prescriber: true,
  sub_has_other_role: true,
  ledger_corrupt: true,
  no_checkpoint: true,
  tile_not_found: true,
  too_large_for_qr: true,
  too_many_streams: true,
  chain_full: true,
  too_many_events: true,
  too_long: true,
  empty: true,
  bad_character: true,
  no_fragment: true,
  bad_fragment: true,
  bad_base_url: true,
  bad_prefix: true,
  bad_data: true,
  bad_field_order: true,
  bad_issuer: true,
  bad_time: true,
  bad_signature_format: true,
  foreign_link: true,
} as const;

/** A named `cause.Code` (see {@link NAMED_CAUSE_CODES}). */
export type NamedCauseCode = keyof typeof NAMED_CAUSES;

/** All named cause codes, in a stable order (for registries and tests). */
export const NAMED_CAUSE_CODES: readonly NamedCauseCode[] = Object.freeze(
  Object.keys(NAMED_CAUSES) as NamedCauseCode[],
);

/**
 * The cause codes of the operator's tools, each `<part>_<reason>` (`catalog_not_xml`,
 * `keyring_unreadable`, ...): the catalogue import, the log's tiles and receipts, the key ring
 * and the log monitor. No call of the web page meets them but as an internal error.
 */
export type ToolCauseCode = `${'catalog' | 'tlog' | 'receipt' | 'keyring' | 'monitor'}_${string}`;

/** Every `cause.Code` erx answers with. */
export type CauseCode = ErrorCode | NamedCauseCode | ToolCauseCode;

/** The values a violation's wording needs (a limit, the allowed values, ...), by name. */
export type ViolationParams = Record<string, string | number | (string | number)[]>;

/** One schema or rule violation, `path` a JSON pointer into the offending document. */
export interface Violation {
  path: string;
  code: ViolationCode;
  message: string;
  params: ViolationParams;
}

export interface ErxErrorOptions {
  /** `cause.Code` of the error body; defaults to the error code itself. */
  causeCode?: CauseCode;
  /** Every violation found, answered as the top-level `violations` field (SPEC.md §4). */
  violations?: readonly Violation[];
  /** Details for the log only; never sent to a client. */
  detail?: unknown;
  /** Seconds a client should wait before retrying (429, 503). */
  retryAfter?: number;
  /**
   * The values the client message names (a lock holder, a time), answered as the top-level
   * `params` so that a client can word the refusal in its own language by `cause.Code`.
   */
  params?: ViolationParams;
}

/** An expected failure with a fixed client message. Anything else that is thrown is a bug (500). */
export class ErxError extends Error {
  readonly code: ErrorCode;
  readonly causeCode: CauseCode;
  readonly violations: readonly Violation[] | undefined;
  readonly detail: unknown;
  readonly retryAfter: number | undefined;
  readonly params: ViolationParams | undefined;

  constructor(code: ErrorCode, message: string, options: ErxErrorOptions = {}) {
    super(message);
    // The class thrown: ErxError, or the subclass (LinkError, PkiError, ...).
    this.name = new.target.name;
    this.code = code;
    this.causeCode = options.causeCode ?? code;
    this.violations = options.violations;
    this.detail = options.detail;
    this.retryAfter = options.retryAfter;
    this.params = options.params;
  }
}

/**
 * An {@link ErxError} of one part of erx whose `reason`, out of the part's closed set `R`, says
 * what went wrong and picks its fixed client message from the part's table. The code (and so the
 * HTTP status) is the subclass's choice: client input is `bad_request`, the operator's key files
 * are `internal_error`.
 */
export abstract class ReasonedError<R extends string> extends ErxError {
  readonly reason: R;

  protected constructor(
    code: ErrorCode,
    reason: R,
    messages: Readonly<Record<R, string>>,
    options: ErxErrorOptions = {},
  ) {
    super(code, messages[reason], options);
    this.reason = reason;
  }
}

/**
 * The base of a {@link ReasonedError} whose code is `code` whatever the reason, and whose only
 * option is the detail for the log: `class PkiError extends reasonedError<PkiErrorReason>(…) {}`.
 */
export function reasonedError<R extends string>(
  code: ErrorCode,
  messages: Readonly<Record<R, string>>,
) {
  return class extends ReasonedError<R> {
    constructor(reason: R, detail?: unknown) {
      super(code, reason, messages, { detail });
    }
  };
}

/** True when `value` is an {@link ErxError} (also across module copies). */
export function isErxError(value: unknown): value is ErxError {
  return value instanceof ErxError;
}
