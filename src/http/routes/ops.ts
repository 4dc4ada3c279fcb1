/** Operator endpoints (SPEC.md §5): liveness, readiness (store + keys), Prometheus metrics. */
import type { FastifyInstance } from 'fastify';
import { HealthStatus, MetricsText, ref } from '../../api/index.js';
import { ErxError } from '../../errors.js';
import type { AppDeps } from '../deps.js';
import { errorResponses } from './route-schemas.js';

/** Registers `/healthz`, `/readyz` and `/metrics`. */
export function registerOpsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const quiet = { rateLimit: false as const };
  app.get(
    '/healthz',
    {
      config: quiet,
      schema: {
        tags: ['operations'],
        summary: 'Liveness',
        response: { 200: ref(HealthStatus), ...errorResponses([500]) },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: quiet,
      schema: {
        tags: ['operations'],
        summary: 'Readiness: store and keys',
        response: { 200: ref(HealthStatus), ...errorResponses([500, 503]) },
      },
    },
    async () => {
      try {
        await deps.ready();
      } catch (error) {
        throw new ErxError(
          'service_unavailable',
          'Not ready: the store or the keys are unusable.',
          {
            detail: error,
          },
        );
      }
      return { status: 'ready' };
    },
  );
  app.get(
    '/metrics',
    {
      config: quiet,
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        produces: ['text/plain'],
        response: { 200: ref(MetricsText), ...errorResponses([500]) },
      },
    },
    async (_request, reply) => {
      const text = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(text);
    },
  );
}
