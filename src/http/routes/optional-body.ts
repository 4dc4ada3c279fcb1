/**
 * Calls whose body may be left out (`optionalBody`): dispense (no body is a full dispensation),
 * lock and unlock (no body is the usual call). Without a body Fastify has not checked the query
 * yet; the rules here check it as its schema says it.
 */
import type { FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import { REASON_MAX_LENGTH, Reason } from '../../api/index.js';
import { ErxError } from '../../errors.js';
import type { ViolationCode, ViolationParams } from '../../errors.js';

/** One query parameter's rule, said as its schema says it, for a call without a body. */
export interface QueryRule {
  readonly name: string;
  readonly holds: (value: unknown) => boolean;
  readonly code: ViolationCode;
  readonly params: ViolationParams;
  readonly message: string;
  readonly sentence: string;
}

/**
 * The validation of a route whose body may be left out (`optionalBody`): a missing body is no
 * error. Fastify stops at the first invalid part and checks the body before the query, so
 * without a body the query has not been checked yet: it is checked here.
 */
export function acceptMissingBody(request: FastifyRequest, queryRules: readonly QueryRule[]): void {
  const invalid = request.validationError;
  if (!invalid) return;
  if (!(invalid.validationContext === 'body' && request.body === undefined)) throw invalid;
  if (request.validateInput(request.query, 'querystring')) return;
  const query = request.query as Record<string, unknown>;
  const broken = queryRules.filter((rule) => !rule.holds(query[rule.name]));
  throw new ErxError('bad_request', broken.map((rule) => rule.sentence).join(' ') || 'Bad query.', {
    violations: broken.map((rule) => ({
      path: `/${rule.name}`,
      code: rule.code,
      message: rule.message,
      params: rule.params,
    })),
  });
}

/** The `reason` of a dispense, a lock or an unlock: the one reason schema's rule (`Reason`). */
export const REASON_RULE: QueryRule = {
  name: 'reason',
  holds: (value) => value === undefined || Value.Check(Reason, value),
  code: 'plain_text',
  params: { max_length: REASON_MAX_LENGTH },
  message: `must be at most ${REASON_MAX_LENGTH} characters, without control or bidirectional control characters`,
  sentence: `The query parameter reason is at most ${REASON_MAX_LENGTH} characters, without control or bidirectional control characters.`,
};
