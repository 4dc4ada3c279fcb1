/**
 * Prometheus metrics of one erx instance (SPEC.md §5 `/metrics`): request counts and latencies per
 * route, events appended by type, token-check cache hits. One registry per app, so several apps in
 * one process (tests) do not collide.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly latency: Histogram<'method' | 'route'>;
  readonly eventsAppended: Counter<'type'>;
  readonly tokenCache: Counter<'result'>;
}

/** Creates the metric set on a fresh registry. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'erx_http_requests_total',
      help: 'HTTP requests answered, by route and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'erx_http_request_duration_seconds',
      help: 'HTTP request latency by route.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    eventsAppended: new Counter({
      name: 'erx_events_appended_total',
      help: 'Ledger events appended, by type.',
      labelNames: ['type'],
      registers: [registry],
    }),
    tokenCache: new Counter({
      name: 'erx_token_check_cache_total',
      help: 'Token checks answered from the cache (hit) or by the token service (miss).',
      labelNames: ['result'],
      registers: [registry],
    }),
  };
}
