/**
 * The embedded token service's endpoints (SPEC.md §5): client-credentials issuing and the seed's
 * token check (seed §4.3). Absent when erx points at an external token service.
 */
import type { FastifyInstance, preSerializationHookHandler } from 'fastify';
import {
  OAUTH_ERRORS,
  TokenErrorBody,
  TokenForm,
  TokenInfo,
  TokenInfoForm,
  TokenResult,
  ref,
} from '../../api/index.js';
import type { ErrorBody, OAuthError } from '../../api/index.js';
import { pickClientCredentials } from '../../auth/index.js';
import type { TokenService } from '../../auth/index.js';
import { ANY_CALL, errorResponses } from './route-schemas.js';

/**
 * What the token service's calls can meet: a bad form (400), bad client credentials (401), too
 * many failed ones from the address or for the client id (429), hashing at capacity (503).
 */
const errors = {
  ...errorResponses([400, 401, ...ANY_CALL]),
  400: oauthError('`invalid_request` or `unsupported_grant_type` (RFC 6749 §5.2): a bad form.'),
  401: oauthError('`invalid_client` (RFC 6749 §5.2): the client credentials do not authenticate.'),
};

function oauthError(description: string): object {
  return { description, content: { 'application/json': { schema: ref(TokenErrorBody) } } };
}

const RFC_6749: ReadonlySet<string> = new Set(OAUTH_ERRORS);

/**
 * Adds RFC 6749 §5.2's `error` and `error_description` to a 400 or 401 error body, so that a stock
 * OAuth 2.0 client reads the refusal: the cause code where it is one of RFC 6749's, else
 * `invalid_request` (400) or `invalid_client` (401).
 */
const withOauthError: preSerializationHookHandler<unknown> = async (_request, reply, payload) => {
  const status = reply.statusCode;
  if (status !== 400 && status !== 401) return payload;
  const body = payload as ErrorBody;
  const code = body.cause.Code;
  const error: OAuthError = RFC_6749.has(code)
    ? (code as OAuthError)
    : status === 400
      ? 'invalid_request'
      : 'invalid_client';
  return { ...body, error, error_description: body.message };
};

const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** Registers `/REST/v1/OAuth/token` and `/REST/v1/OAuth/GetTokenInfo`. */
export function registerOauthRoutes(app: FastifyInstance, tokens: TokenService | undefined): void {
  if (!tokens) return;

  app.post<{ Body: TokenForm | undefined }>(
    '/REST/v1/OAuth/token',
    {
      config: { form: true, clientAuth: true },
      preSerialization: withOauthError,
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
      preSerialization: withOauthError,
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
