/** Operator endpoints (SPEC.md §5): liveness, readiness (store + keys), Prometheus metrics. */
import type { FastifyInstance } from 'fastify';
import { ErxError } from '../../errors.js';
import type { AppDeps } from '../deps.js';

/** Registers `/healthz`, `/readyz` and `/metrics`. */
export function registerOpsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const quiet = { rateLimit: false as const };
  app.get(
    '/healthz',
    { config: quiet, schema: { tags: ['operations'], summary: 'Liveness' } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    { config: quiet, schema: { tags: ['operations'], summary: 'Readiness: store and keys' } },
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
    { config: quiet, schema: { tags: ['operations'], summary: 'Prometheus metrics' } },
    async (_request, reply) => {
      const text = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(text);
    },
  );
}
