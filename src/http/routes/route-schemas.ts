/**
 * Parts of a route's schema beyond its shapes: the error answers (SPEC.md §8), each status in the
 * seed §7 error shape with `Retry-After` on 429 and 503 and examples where a status has a fixed
 * body (seed §7's 403), and bodies that may be left out. Fastify serialises error bodies with
 * these schemas, so they are the shape that is sent.
 */
import { ErrorBody, ref } from '../../api/index.js';

/** The error statuses erx answers (SPEC.md §8); 500 is any route's unexpected failure. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 423 | 429 | 500 | 503;

const DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: '`bad_request`: a malformed body, parameter or link; `violations` says what.',
  401: '`unauthorized`: no bearer token, or an inactive one (with `WWW-Authenticate`).',
  403: '`forbidden`: the caller’s role or identity may not do this, or the state forbids it.',
  404: '`not_found`: no such prescription or event.',
  409: '`conflict`: the call conflicts with the prescription’s state or an `Idempotency-Key`.',
  413: '`payload_too_large`: the body is over 64 KiB.',
  415: '`unsupported_media_type`: this `Content-Type` is not accepted here.',
  423: '`locked`: locked by someone else; `message` names the lock holder.',
  429: '`too_many_requests`: over the rate limit; retry after `Retry-After` seconds.',
  500: '`internal_error`: an unexpected failure; details stay in the service’s log.',
  503: '`service_unavailable`: erx is at capacity or a service it depends on is down; retry.',
};

const RETRY_AFTER = {
  'Retry-After': { type: 'integer', minimum: 1, description: 'Seconds to wait before retrying.' },
} as const;

/** An example body of an error answer (OpenAPI Example Object). */
export interface ErrorExample {
  summary: string;
  value: ErrorBody;
}

/**
 * The response schemas of `statuses`, each the error body, with `examples` for some of them;
 * spread into a route's `response` beside its success answer.
 */
export function errorResponses(
  statuses: readonly ErrorStatus[],
  examples: Partial<Record<ErrorStatus, Record<string, ErrorExample>>> = {},
): Record<number, object> {
  const out: Record<number, object> = {};
  for (const status of statuses) {
    const media: Record<string, unknown> = { schema: ref(ErrorBody) };
    const named = examples[status];
    if (named !== undefined) media.examples = named;
    out[status] = {
      description: DESCRIPTIONS[status],
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      content: { 'application/json': media },
    };
  }
  return out;
}

/** What any call can meet before its handler: limits, load, the body's size and type. */
export const ANY_CALL: readonly ErrorStatus[] = [413, 415, 429, 500, 503];

/** What a call with a bearer token can meet besides {@link ANY_CALL}. */
export const BEARER_CALL: readonly ErrorStatus[] = [400, 401, 403, ...ANY_CALL];

/** The route-schema key that marks a body optional in the OpenAPI document (see openapi.ts). */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * A body that may be left out (the dispense call: no body is a full dispensation). Fastify has no
 * such notion, so the route accepts the missing body itself; this tells the OpenAPI document.
 */
export function optionalBody(schema: object): { body: { $ref: string }; [OPTIONAL_BODY]: true } {
  return { body: ref(schema), [OPTIONAL_BODY]: true };
}
