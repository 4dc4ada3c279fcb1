/**
 * OpenAPI 3.1 of every route (SPEC.md §5), generated from the route schemas by
 * `@fastify/swagger`, served at `/openapi.json`, with a reference page at `/docs`.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The interface version erx implements (seed §9). */
export const INTERFACE_VERSION = '0.10.1';

/** Registers the OpenAPI generator, `/openapi.json` and `/docs`. */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'erx e-prescription service',
        description:
          'Signed CHMED16A prescription links, dispensations and a tamper-evident event log.',
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
