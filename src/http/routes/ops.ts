/**
 * Operator endpoints (SPEC.md §5): liveness and readiness (store + keys). The Prometheus metrics
 * have a listener of their own (`MetricsListener`), not the API port.
 */
import type { FastifyInstance } from 'fastify';
import { HealthStatus, ref } from '../../api/index.js';
import { ErxError } from '../../errors.js';
import type { AppDeps } from '../deps.js';
import { errorResponses } from './route-schemas.js';

/** Registers `/healthz` and `/readyz`. */
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
}
