/**
 * OpenAPI 3.1 of every route (SPEC.md §5), generated from the route schemas by
 * `@fastify/swagger`, served at `/openapi.json`, with a reference page at `/docs`. Every shape is
 * a named schema of `src/api` in `components.schemas`, referenced by its `$id`, so a client
 * generated from the document gets one named type per shape.
 */
import swagger from '@fastify/swagger';
import type { SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { retryContractMarkdown } from '../api/retry-contract.js';
import { describeOperations } from './openapi-operations.js';
import { OPTIONAL_BODY } from './routes/route-schemas.js';

/** The interface version erx implements (seed §9). */
export const INTERFACE_VERSION = '0.10.1';

type Operation = { requestBody?: { required?: boolean }; [OPTIONAL_BODY]?: boolean };

/**
 * Marks the bodies of routes with {@link OPTIONAL_BODY} as not required (the generator marks every
 * body required, as Fastify refuses a missing one unless the route accepts it itself).
 */
const markOptionalBodies: SwaggerTransformObject = (document) => {
  const openapi = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
  for (const item of Object.values(openapi.paths ?? {})) {
    for (const operation of Object.values(item ?? {}) as Operation[]) {
      if (typeof operation !== 'object' || operation === null || !(OPTIONAL_BODY in operation)) {
        continue;
      }
      delete operation[OPTIONAL_BODY];
      if (operation.requestBody) operation.requestBody.required = false;
    }
  }
  describeOperations(openapi);
  return openapi;
};

/** Registers the OpenAPI generator, `/openapi.json` and `/docs`. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'erx e-prescription service',
        description: `Signed CHMED16A prescription links, dispensations and a tamper-evident event log.\n\n${retryContractMarkdown()}`,
        version: INTERFACE_VERSION,
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Bearer acs:<token> or Bearer oauth:<token>',
          },
        },
      },
    },
    // Shared schemas are listed under their `$id` (the default names them `def-0`, `def-1`, …).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    transformObject: markOptionalBodies,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: false },
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () =>
    app.swagger(),
  );
}
