/**
 * Builds the erx HTTP application (SPEC.md §5) without listening, so tests can `inject()` and the
 * server can `listen()` (fastify's testing guide). Routes are thin: parse, call one service
 * function, serialise.
 */
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODIES_JUDGED_BY_THE_SERVICE, sharedSchemas } from '../api/index.js';
import { installAuth } from './auth-hook.js';
import { DEFAULT_TIMEOUTS } from './deps.js';
import type { AppDeps } from './deps.js';
import { installBodyParsers } from './body-parsers.js';
import { installConnectionLimit } from './connection-limit.js';
import { clientErrorSender, frameworkErrorSender, installErrorHandlers } from './error-handler.js';
import { installLoadShedding, wasShed } from './load-shedding.js';
import { installMetrics } from './metrics-hooks.js';
import { installOpenApi } from './openapi.js';
import { failedCheckLimit, installRateLimit } from './rate-limit.js';
import { registerCatalogRoutes } from './routes/catalog.js';
import { registerEventRoutes } from './routes/events.js';
import { registerLogRoutes } from './routes/log.js';
import { registerMeRoute } from './routes/me.js';
import { registerOauthRoutes } from './routes/oauth.js';
import { registerOpsRoutes } from './routes/ops.js';
import { registerPrescriptionListRoute } from './routes/prescription-list.js';
import { registerPrescriptionRoutes } from './routes/prescriptions.js';
import { buildSerializerFactory } from './serializer-factory.js';
import { validatorFactory } from './validator-factory.js';
import { TraceIds, formatTraceparent, traceFor } from './trace.js';
import type { Trace } from './trace.js';
import { installWebPage } from './web.js';
import { WIRE } from '../api/wire.js';

export type { AppDeps } from './deps.js';

/** Request bodies above this are refused with 413 (SPEC.md §9). */
export const BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    trace: Trace;
  }
}

/** One log line per request, when it is answered, naming the request (half the writes of two). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    // Under overload a line per refused request would cost what shedding saves; see SHED_WARNING_MS.
    else if (wasShed(request)) reply.log.debug(line, 'request shed');
    else reply.log.info(line, 'request completed');
  }
}

/** Creates the Fastify instance with every route, hook and handler of erx. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.timeouts };
  // The application's own source of trace ids: nothing random is shared between instances.
  const traceIds = new TraceIds();
  const app = Fastify({
    logger: deps.logger ?? false,
    logController: new OneLinePerRequest(),
    bodyLimit: BODY_LIMIT,
    // Slowloris: a request must arrive completely within these (SPEC.md §9).
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // Node enforces both timeouts only when it sweeps its connections (every 30 s by default),
      // so a trickling client would keep its socket up to 30 s longer than the limit says.
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    // The client's address (rate limits) is the socket's, or, behind a proxy the operator lists in
    // ERX_TRUST_PROXY, the one its X-Forwarded-For names; never a header anyone else sends.
    trustProxy: deps.config.trustProxy.length > 0 ? [...deps.config.trustProxy] : false,
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    // URLs the router refuses before any hook runs also answer in the error shape (SPEC.md §8).
    frameworkErrors: frameworkErrorSender(traceIds),
    // So do requests Node's HTTP parser refuses before Fastify sees them.
    clientErrorHandler: clientErrorSender(traceIds),
    // Response serializers built with only the named shapes they reach; no validator for the
    // bodies the service judges itself (./serializer-factory.ts, ./validator-factory.ts).
    schemaController: {
      compilersFactory: {
        buildSerializer: buildSerializerFactory,
        buildValidator: validatorFactory(BODIES_JUDGED_BY_THE_SERVICE),
      },
    },
    ajv: {
      // The seed says unknown properties are rejected: never coerce, never strip (SPEC.md §9).
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        allErrors: true,
        // The prescription schema's `if/then` names a property of its parent (standard, but
        // outside Ajv's strictRequired check).
        strictRequired: false,
        inlineRefs: false,
        // What a query parameter is on the wire, for the OpenAPI document only (src/api/wire.ts).
        keywords: [WIRE],
      },
    },
  });

  app.decorateRequest('trace', null as unknown as Trace);
  app.addHook('onRequest', async (request, reply) => {
    request.trace = traceFor(request.headers.traceparent, traceIds);
    reply.header('traceparent', formatTraceparent(request.trace));
    // Every answer says exactly what it is (JSON, PNG, SVG); a browser must not guess otherwise.
    reply.header('x-content-type-options', 'nosniff');
  });

  // The named shapes of the interface, referenced by the route schemas (src/api).
  for (const schema of sharedSchemas()) app.addSchema(schema);
  installConnectionLimit(app, deps.config, deps.metrics.registry);
  installLoadShedding(app, deps.config, deps.signingLoad);
  installErrorHandlers(app);
  installBodyParsers(app, BODY_LIMIT);
  installMetrics(app, deps.metrics);
  await installOpenApi(app);
  await installRateLimit(app, deps.config);
  installAuth(app, deps.checker, failedCheckLimit(app, deps.config));

  registerOpsRoutes(app, deps);
  registerOauthRoutes(app, deps.tokens);
  registerPrescriptionRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerPrescriptionListRoute(app, deps);
  registerMeRoute(app, deps);
  registerCatalogRoutes(app, deps);
  registerLogRoutes(app, deps);
  await installWebPage(app, deps.config.prescriptionUrl);
  return app;
}
