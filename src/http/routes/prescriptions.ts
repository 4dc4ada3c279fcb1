/**
 * The prescription routes under `/ePrescription` (SPEC.md §5, seed §4.1–4.2). Each parses its
 * input, calls one service function and serialises the answer.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErxError } from '../../errors.js';
import type { CallContext, DispenseItem } from '../../service/index.js';
import type { AppDeps } from '../deps.js';
import { requirePrincipal } from '../auth-hook.js';
import { assertDrawable, pixelSize, renderCreated } from '../render-created.js';
import { sendSerialized } from '../send-serialized.js';
import {
  createBody,
  createQuery,
  createResult,
  dispenseBody,
  eventParams,
  eventView,
  forceQuery,
  idParam,
  reasonQuery,
  verifyBody,
  verifyResult,
} from './prescription-schemas.js';

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

/** Registers create, verify, dispense, revoke, cancel, lock and unlock. */
export function registerPrescriptionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const service = deps.prescriptions;

  app.post<{ Body: string; Querystring: { 'output-format'?: string; size?: string } }>(
    '/ePrescription/create',
    {
      config: { rawBody: true, signs: true },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Create a signed prescription link (JSON data, PNG or SVG QR code)',
        security: bearer,
        querystring: createQuery,
        body: createBody,
        response: { 200: createResult },
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
      const check = format === 'data' ? undefined : assertDrawable;
      const created = await service.create(request.body ?? '', ctx, check);
      return renderCreated(reply, created, format, width);
    },
  );

  app.post<{ Body: string | undefined }>(
    '/ePrescription/verify',
    {
      config: { rawBody: true },
      schema: {
        tags,
        summary: 'Verify a prescription link; with a bearer token, the variant with transactions',
        body: verifyBody,
        response: { 200: verifyResult },
      },
    },
    async (request, reply) =>
      sendSerialized(reply, await service.verify(request.body ?? '', request.principal)),
  );

  app.post<{
    Params: { id: string };
    Querystring: { force?: 'true' | 'false' };
    Body: DispenseItem[] | undefined;
  }>(
    '/ePrescription/dispense/:id',
    {
      // No body at all is a full dispensation (seed §4.1 rule 1), which the array schema refuses.
      attachValidation: true,
      config: { signs: true },
      schema: {
        tags,
        summary: 'Record a full (no body), partial, substitute or forced dispensation',
        security: bearer,
        params: idParam,
        querystring: forceQuery,
        body: dispenseBody,
        response: { 200: eventView },
      },
    },
    async (request) => {
      const invalid = request.validationError;
      if (invalid && !(invalid.validationContext === 'body' && request.body === undefined)) {
        throw invalid;
      }
      // Fastify stops at the first invalid part and checks the body before the query: without a
      // body, `force` has not been checked yet (SPEC.md §5: anything but true/false is a 400).
      if (invalid && !request.validateInput(request.query, 'querystring')) {
        throw new ErxError('bad_request', 'The query parameter force must be true or false.', {
          violations: [{ path: '/force', message: 'must be true or false' }],
        });
      }
      return service.dispense(
        request.params.id,
        request.body,
        request.query.force === 'true',
        context(request),
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
        params: idParam,
        response: { 200: eventView },
      },
    },
    async (request) => service.revoke(request.params.id, context(request)),
  );

  app.post<{ Params: { id: string; eventId: string } }>(
    '/ePrescription/cancel/:id/event/:eventId',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: "Cancel one's own dispense event",
        security: bearer,
        params: eventParams,
        response: { 200: eventView },
      },
    },
    async (request) => service.cancel(request.params.id, request.params.eventId, context(request)),
  );

  app.post<{ Params: { id: string }; Querystring: { reason?: string } }>(
    '/ePrescription/lock/:id',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: 'Lock a prescription while serving the patient',
        security: bearer,
        params: idParam,
        querystring: reasonQuery,
        response: { 200: eventView },
      },
    },
    async (request) => service.lock(request.params.id, request.query.reason, context(request)),
  );

  app.post<{ Params: { id: string }; Querystring: { reason?: string } }>(
    '/ePrescription/unlock/:id',
    {
      config: { signs: true },
      schema: {
        tags,
        summary: 'Unlock a prescription (the locking actor or the issuer)',
        security: bearer,
        params: idParam,
        querystring: reasonQuery,
        response: { 200: eventView },
      },
    },
    async (request) => service.unlock(request.params.id, request.query.reason, context(request)),
  );
}
