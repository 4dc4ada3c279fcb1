/** `POST /ePrescription/create` (SPEC.md §3–5): the signed link as JSON, or its QR code. */
import type { FastifyInstance } from 'fastify';
import {
  CreateBody,
  CreateQuery,
  CreateResult,
  QrCodePng,
  QrCodeSvg,
  ref,
} from '../../api/index.js';
import { requireRole } from '../../service/index.js';
import type { AppDeps } from '../deps.js';
import { refuseMalformedQuery } from '../query-encoding.js';
import { readPrescriptionForCreate } from '../read-bodies.js';
import { pixelSize, renderCreated } from '../render-created.js';
import { callContext } from './call-context.js';
import { BEARER_CALL, errorResponses } from './route-schemas.js';

/** Registers create. */
export function registerCreateRoute(app: FastifyInstance, deps: AppDeps): void {
  const service = deps.prescriptions;
  const log = deps.transparency.log;
  app.post<{ Body: string; Querystring: { 'output-format'?: string; size?: string } }>(
    '/ePrescription/create',
    {
      config: { rawBody: true, signs: true },
      attachValidation: true,
      preValidation: refuseMalformedQuery,
      schema: {
        tags: ['prescriptions'],
        summary: 'Create a signed prescription link (JSON data, PNG or SVG QR code)',
        security: [{ bearer: [] }],
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
      const ctx = callContext(request);
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
}
