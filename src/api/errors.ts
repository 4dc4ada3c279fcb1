/** The error body of seed §7, the one shape every error of erx is answered in (SPEC.md §8). */
import Type from 'typebox';
import type { Static } from 'typebox';
import { ERROR_CODES, VIOLATION_CODES } from '../errors.js';

/** The W3C `traceparent` of the request, split into its four fields (seed §7, SPEC.md §8). */
export const Trace = Type.Object(
  {
    Version: Type.String({ description: 'Trace context version, `00`.' }),
    TraceID: Type.String({ description: '32 hexadecimal digits.' }),
    ParentID: Type.String({ description: '16 hexadecimal digits: the span erx answered under.' }),
    Flags: Type.String({ description: '2 hexadecimal digits.' }),
  },
  {
    $id: 'Trace',
    description: 'The request’s trace, also sent as the `traceparent` response header.',
  },
);
export type Trace = Static<typeof Trace>;

/** Every `error_code` erx answers with (SPEC.md §8). */
export const ErrorCode = Type.Enum(ERROR_CODES, { $id: 'ErrorCode', type: 'string' });
export type ErrorCode = Static<typeof ErrorCode>;

const ParamValue = Type.Union([Type.String(), Type.Number()]);
const ParamValues = Type.Union([ParamValue, Type.Array(ParamValue)]);

/** One violation of a refused request or document (SPEC.md §4). */
export const Violation = Type.Object(
  {
    path: Type.String({ description: 'JSON pointer into the offending body or parameter.' }),
    code: Type.Enum(VIOLATION_CODES, {
      type: 'string',
      description:
        'What is broken, for a client to say it in its own language: the schema rule ' +
        '(`required`, `pattern`, `max_length`, ...) or a named one (`gln_digits`: exactly 13 ' +
        'digits, `zip_digits`: 4 or 5 digits, `not_uuid`, ...). A client that does not know a ' +
        'code shows `message`.',
    }),
    message: Type.String({ description: 'The same in English.' }),
    params: Type.Record(Type.String(), ParamValues, {
      description:
        'The values the wording needs, by name: `limit` (lengths, counts, bounds), `values` ' +
        '(`one_of`), `pattern`, `format`, `type`, `min`/`max`, `expires_at`, ...; `{}` when none.',
    }),
  },
  { $id: 'Violation' },
);
export type Violation = Static<typeof Violation>;

/** The `cause` of an error body (seed §7). */
export const ErrorCause = Type.Object(
  {
    StatusCode: Type.Integer({ description: 'The HTTP status of the answer.' }),
    Message: Type.String(),
    Code: Type.String({
      description:
        'Finer reason, e.g. `unknown_error` (seed §7: already fully dispensed), `revoked`, ' +
        '`wrong_role`, `not_owner`, `invalid_document`, `idempotency_key_reused`.',
    }),
    Trace,
  },
  { $id: 'ErrorCause' },
);
export type ErrorCause = Static<typeof ErrorCause>;

/** The error body (seed §7); `violations` lists what a refused document or body breaks. */
export const ErrorBody = Type.Object(
  {
    error_code: ErrorCode,
    message: Type.String({ description: 'Human-readable text.' }),
    trace: Trace,
    cause: ErrorCause,
    violations: Type.Optional(Type.Array(Violation, { maxItems: 100 })),
    params: Type.Optional(
      Type.Record(Type.String(), ParamValues, {
        description:
          'The values `message` names, by name, for a client that words the refusal by ' +
          '`cause.Code`: `holder` and `since` (`locked`, `already_locked`), `expires_at` ' +
          '(`expired`), `medicament`, `amount`, `remaining`, `prescribed` ' +
          '(`quantity_exceeded`, `substitution_not_allowed`), `host` (`foreign_link`: the host of ' +
          'a link another service issued), `limit` (`chain_full`, `too_many_events`) and ' +
          '`window_s` (`too_many_events`).',
      }),
    ),
  },
  { $id: 'ErrorBody', description: 'The error body (seed §7).' },
);
export type ErrorBody = Static<typeof ErrorBody>;

const EXAMPLE_TRACE: Trace = {
  Version: '00',
  TraceID: '4bf92f3577b34da6a3ce929d0e0e4736',
  ParentID: '00f067aa0ba902b7',
  Flags: '01',
};

const ALREADY_DISPENSED = 'The prescription has already been fully dispensed.';

/** Seed §7 and SPEC.md §5: a dispense without `force=true` of a fully dispensed prescription. */
export const alreadyDispensedExample: ErrorBody = {
  error_code: 'forbidden',
  message: ALREADY_DISPENSED,
  trace: EXAMPLE_TRACE,
  cause: {
    StatusCode: 403,
    Message: ALREADY_DISPENSED,
    Code: 'unknown_error',
    Trace: EXAMPLE_TRACE,
  },
};

/** The error codes of RFC 6749 §5.2 a token endpoint answers. */
export const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
] as const;
export type OAuthError = (typeof OAUTH_ERRORS)[number];

/** The token endpoints' 400 and 401: the seed's error body with RFC 6749 §5.2's two fields. */
export const TokenErrorBody = Type.Object(
  {
    ...ErrorBody.properties,
    error: Type.Enum(OAUTH_ERRORS, { type: 'string', description: 'RFC 6749 §5.2.' }),
    error_description: Type.String({ description: 'The same text as `message`.' }),
  },
  {
    $id: 'TokenErrorBody',
    description:
      'The error body (seed §7) with `error` and `error_description` (RFC 6749 §5.2), so a stock ' +
      'OAuth 2.0 client reads the refusal.',
  },
);
export type TokenErrorBody = Static<typeof TokenErrorBody>;
