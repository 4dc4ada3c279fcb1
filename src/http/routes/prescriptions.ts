/**
 * The prescription routes under `/ePrescription` (SPEC.md §5, seed §4.1–4.2). Each parses its
 * input, calls one service function and serialises the answer.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErxError } from '../../errors.js';
import type { ViolationCode, ViolationParams } from '../../errors.js';
import { requireRole } from '../../service/index.js';
import type { CallContext, DispenseItem } from '../../service/index.js';
import type { AppDeps } from '../deps.js';
import { requirePrincipal } from '../auth-hook.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { readLinkText, readPrescriptionForCreate } from '../read-bodies.js';
import { pixelSize, renderCreated } from '../render-created.js';
import { serializeWith } from '../send-serialized.js';
import {
  CreateBody,
  CreateQuery,
  CreateResult,
  DispenseBody,
  EventParams,
  EventAnswer,
  ForceQuery,
  readForce,
  IdParams,
  QrCodePng,
  QrCodeSvg,
  ReasonBody,
  ReasonQuery,
  StatusResult,
  VerifyBody,
  VerifyResult,
  alreadyDispensedExample,
  ref,
} from '../../api/index.js';
import { PLAIN_TEXT_PATTERN } from '../../api/params.js';
import { BEARER_CALL, errorResponses, optionalBody } from './route-schemas.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
const bearer = [{ bearer: [] }];
const tags = ['prescriptions'];

/**
 * The call context: the caller and, when the call carries an `Idempotency-Key`, the key with a
 * fingerprint of the request (only then is there a first call to compare it with).
 */
function context(request: FastifyRequest): CallContext {
  const principal = requirePrincipal(request);
  const key = request.headers['idempotency-key'];
  if (key === undefined) return { principal };
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new ErxError('bad_request', 'Idempotency-Key must be 1 to 200 visible ASCII characters.');
  }
  const body =
    typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null);
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(body)
    .digest('hex');
  return { principal, idempotency: { key, requestHash } };
}

/** Registers create, verify, status, dispense, revoke, cancel, lock and unlock. */
export function registerPrescriptionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const service = deps.prescriptions;
  const log = deps.transparency.log;
  /** The event a call appended, with its receipt when a checkpoint included it in time. */
  const receipted = async <T extends { id: string; signature?: string }>(
    view: T,
  ): Promise<T & { receipt?: string }> => {
    const receipt = await log.receipt(view.id, view.signature);
    return receipt === undefined ? view : { ...view, receipt };
  };

  app.post<{ Body: string; Querystring: { 'output-format'?: string; size?: string } }>(
    '/ePrescription/create',
    {
      config: { rawBody: true, signs: true },
      attachValidation: true,
      preValidation: refuseMalformedQuery,
      schema: {
        tags,
        summary: 'Create a signed prescription link (JSON data, PNG or SVG QR code)',
        security: bearer,
        consumes: ['application/json', 'text/plain'],
        querystring: CreateQuery,
        body: ref(CreateBody),
        response: {
          200: {
            description: 'The link as JSON (`data`), or its QR code as PNG (default) or SVG.',
            content: {
              'application/json': { schema: ref(CreateResult) },
              'image/png': { schema: ref(QrCodePng) },
              'image/svg+xml': { schema: ref(QrCodeSvg) },
            },
          },
          ...errorResponses([...BEARER_CALL, 409]),
        },
      },
    },
    async (request, reply) => {
      // The body is validated by the service (SPEC.md §4 violations), not by the route schema.
      const query = request.query;
      if (request.validationError && request.validationError.validationContext === 'querystring') {
        throw request.validationError;
      }
      const ctx = context(request);
      const width = pixelSize(query.size);
      const format = query['output-format'] ?? 'qrcode';
      // Who may ask is settled before the document is read (decisions: check order).
      requireRole(ctx.principal, 'prescriber');
      const doc = readPrescriptionForCreate(request.body ?? '');
      // A QR code takes its place in the render queue before anything is stored: a full queue
      // refuses the call (503) rather than a prescription created and never answered.
      const qr = format === 'data' ? undefined : deps.qrRenderer.reserve();
      try {
        const created = await service.create(doc, ctx, { asQrCode: format !== 'data' });
        const receipt = await log.receipt(created.eventId);
        return await renderCreated(reply, created, format, width, qr, receipt);
      } finally {
        qr?.release();
      }
    },
  );

  app.post<{ Body: string | undefined }>(
    '/ePrescription/verify',
    {
      config: { rawBody: true },
      schema: {
        tags,
        summary: 'Verify a prescription link; with a bearer token, the variant with transactions',
        consumes: ['text/plain', 'application/json'],
        body: ref(VerifyBody),
        response: {
          200: ref(VerifyResult),
          ...errorResponses([400, 401, 404, 413, 415, 429, 500, 503]),
        },
      },
    },
    async (request, reply) => {
      const outcome = await service.verify(readLinkText(request.body ?? ''), request.principal);
      // The cache keeps the answer's bytes with the answer: encoded once through the schema.
      const bytes = outcome.bytes((answer) => serializeWith(reply, answer));
      return reply.type('application/json; charset=utf-8').send(bytes);
    },
  );

  app.post<{ Body: string | undefined }>(
    '/ePrescription/status',
    {
      config: { rawBody: true },
      schema: {
        tags,
        summary:
          'The status of a prescription for the holder of its link: validity end and packages ' +
          'left for a genuine link, else the anonymous verify answer',
        consumes: ['text/plain', 'application/json'],
        body: ref(VerifyBody),
        response: {
          200: ref(StatusResult),
          ...errorResponses([400, 401, 404, 413, 415, 429, 500, 503]),
        },
      },
    },
    async (request) => service.status(readLinkText(request.body ?? '')),
  );

  app.post<{
    Params: { id: string };
    Querystring: { force?: string; reason?: string };
    Body: DispenseItem[] | undefined;
  }>(
    '/ePrescription/dispense/:id',
    {
      // No body at all is a full dispensation (seed §4.1 rule 1), which the array schema refuses.
      attachValidation: true,
      config: { signs: true },
      preValidation: refuseMalformedQuery,
      schema: {
        tags,
        summary: 'Record a full (no body), partial, substitute or forced dispensation',
        security: bearer,
        params: IdParams,
        querystring: ForceQuery,
        ...optionalBody(DispenseBody),
        response: {
          200: ref(EventAnswer),
          ...errorResponses([...BEARER_CALL, 404, 409, 423], {
            403: {
              already_dispensed: {
                summary: 'Already fully dispensed, and no force=true (seed §7)',
                value: alreadyDispensedExample,
              },
            },
          }),
        },
      },
    },
    async (request) => {
      acceptMissingBody(request, BAD_DISPENSE_QUERY);
      const { force, reason } = request.query;
      return receipted(
        await service.dispense(
          request.params.id,
          request.body,
          { force: force !== undefined && readForce(force) === true, reason },
          context(request),
        ),
      );
    },
  );

  app.post<{ Params: { id: string } }>(
    '/ePrescription/revoke/:id',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: 'Revoke a prescription (its issuer only; final)',
        security: bearer,
        params: IdParams,
        response: { 200: ref(EventAnswer), ...errorResponses([...BEARER_CALL, 404, 409]) },
      },
    },
    async (request) => receipted(await service.revoke(request.params.id, context(request))),
  );

  app.post<{ Params: { id: string; eventId: string } }>(
    '/ePrescription/cancel/:id/event/:eventId',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: "Cancel one's own dispense event",
        security: bearer,
        params: EventParams,
        response: { 200: ref(EventAnswer), ...errorResponses([...BEARER_CALL, 404, 409, 423]) },
      },
    },
    async (request) =>
      receipted(await service.cancel(request.params.id, request.params.eventId, context(request))),
  );

  for (const [action, summary] of [
    ['lock', 'Lock a prescription while serving the patient (lapses after ERX_LOCK_TTL)'],
    ['unlock', 'Unlock a prescription (the locking actor or the issuer)'],
  ] as const) {
    app.post<{ Params: { id: string }; Querystring: ReasonQuery; Body: ReasonBody | undefined }>(
      `/ePrescription/${action}/:id`,
      {
        // No body is the usual call; `{"reason": …}` is the other way to give the reason.
        attachValidation: true,
        config: { signs: true },
        preValidation: refuseMalformedQuery,
        schema: {
          tags,
          summary,
          security: bearer,
          params: IdParams,
          querystring: ReasonQuery,
          ...optionalBody(ReasonBody),
          response: { 200: ref(EventAnswer), ...errorResponses([...BEARER_CALL, 404, 409]) },
        },
      },
      async (request) => {
        acceptMissingBody(request, BAD_REASON_QUERY);
        const reason = oneReason(request.query.reason, request.body?.reason);
        return receipted(await service[action](request.params.id, reason, context(request)));
      },
    );
  }
}

/**
 * The validation of a route whose body may be left out (`optionalBody`): a missing body is no
 * error. Fastify stops at the first invalid part and checks the body before the query, so
 * without a body the query has not been checked yet: it is checked here.
 */
function acceptMissingBody(request: FastifyRequest, queryRules: readonly QueryRule[]): void {
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

/** One query parameter's rule, said as its schema says it, for a call without a body. */
interface QueryRule {
  readonly name: string;
  readonly holds: (value: unknown) => boolean;
  readonly code: ViolationCode;
  readonly params: ViolationParams;
  readonly message: string;
  readonly sentence: string;
}

const PLAIN_TEXT = new RegExp(PLAIN_TEXT_PATTERN, 'u');

const REASON_RULE: QueryRule = {
  name: 'reason',
  holds: (value) =>
    value === undefined ||
    (typeof value === 'string' && value.length <= 500 && PLAIN_TEXT.test(value)),
  code: 'plain_text',
  params: { max_length: 500 },
  message: 'must be at most 500 characters, without control characters',
  sentence: 'The query parameter reason is at most 500 characters, without control characters.',
};

/** The query of a dispense (SPEC.md §5: anything but true/false or 1/0 for force is a 400). */
const BAD_DISPENSE_QUERY: readonly QueryRule[] = [
  {
    name: 'force',
    holds: (value) =>
      value === undefined || (typeof value === 'string' && readForce(value) !== undefined),
    code: 'one_of',
    params: { values: ['true', 'false', '1', '0'] },
    message: 'must be true or false (or 1 or 0)',
    sentence: 'The query parameter force must be true or false (or 1 or 0).',
  },
  REASON_RULE,
];

/** The query of a lock or unlock. */
const BAD_REASON_QUERY: readonly QueryRule[] = [REASON_RULE];

/** The reason of a lock or unlock, given in the query or the body, not in both. */
function oneReason(query: string | undefined, body: string | undefined): string | undefined {
  if (query !== undefined && body !== undefined) {
    throw new ErxError('bad_request', 'Give the reason in the query or in the body, not both.', {
      violations: [{ path: '/reason', code: 'given_twice', message: 'is given twice', params: {} }],
    });
  }
  return query ?? body;
}
