/**
 * The calls on a link's text (seed §4.2, SPEC.md §6, §10): `POST /ePrescription/verify`, with a
 * bearer token the variant with transactions, and `POST /ePrescription/status` for its holder.
 */
import type { FastifyInstance } from 'fastify';
import { StatusResult, VerifyBody, VerifyResult, ref } from '../../api/index.js';
import type { AppDeps } from '../deps.js';
import { readLinkText } from '../read-bodies.js';
import { serializeWith } from '../send-serialized.js';
import { errorResponses } from './route-schemas.js';

const tags = ['prescriptions'];

/** Registers verify and status. */
export function registerLinkRoutes(app: FastifyInstance, deps: AppDeps): void {
  const service = deps.prescriptions;
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
}
