/** Records every answered request in the metrics (per route template, not per raw URL). */
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/** Installs the `onResponse` hook that counts and times requests. */
export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unknown';
    metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
}
