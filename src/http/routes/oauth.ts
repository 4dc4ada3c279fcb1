/**
 * The embedded token service's endpoints (SPEC.md §5): client-credentials issuing and the seed's
 * token check (seed §4.3). Absent when erx points at an external token service.
 */
import type { FastifyInstance } from 'fastify';
import { TokenForm, TokenInfo, TokenInfoForm, TokenResult, ref } from '../../api/index.js';
import { pickClientCredentials } from '../../auth/index.js';
import type { TokenService } from '../../auth/index.js';
import { ANY_CALL, errorResponses } from './route-schemas.js';

/**
 * What the token service's calls can meet: a bad form (400), bad client credentials (401), too
 * many failed ones from the address or for the client id (429), hashing at capacity (503).
 */
const errors = errorResponses([400, 401, ...ANY_CALL]);

const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** Registers `/REST/v1/OAuth/token` and `/REST/v1/OAuth/GetTokenInfo`. */
export function registerOauthRoutes(app: FastifyInstance, tokens: TokenService | undefined): void {
  if (!tokens) return;

  app.post<{ Body: TokenForm | undefined }>(
    '/REST/v1/OAuth/token',
    {
      config: { form: true, clientAuth: true },
      schema: {
        tags: ['token service'],
        summary: 'Issue an access token (OAuth 2.0 client credentials)',
        consumes: ['application/x-www-form-urlencoded'],
        body: ref(TokenForm),
        response: { 200: ref(TokenResult), ...errors },
      },
    },
    async (request, reply) => {
      const form = request.body ?? {};
      const credentials = pickClientCredentials({
        authorization: request.headers.authorization,
        clientId: form.client_id,
        clientSecret: form.client_secret,
      });
      const answer = await tokens.issueToken({
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        grantType: form.grant_type,
        address: request.ip,
      });
      return reply.headers(noStore).send(answer);
    },
  );

  app.post<{ Body: TokenInfoForm | undefined }>(
    '/REST/v1/OAuth/GetTokenInfo',
    {
      config: { form: true, clientAuth: true },
      schema: {
        tags: ['token service'],
        summary: 'Token check (seed 4.3): is this token active, and whose is it',
        consumes: ['application/x-www-form-urlencoded'],
        body: ref(TokenInfoForm),
        response: { 200: ref(TokenInfo), ...errors },
      },
    },
    async (request, reply) => {
      const form = request.body ?? {};
      const answer = await tokens.tokenInfo({
        token: form.token,
        clientId: form.client_id,
        clientSecret: form.client_secret,
        address: request.ip,
      });
      return reply.headers(noStore).send(answer);
    },
  );
}
