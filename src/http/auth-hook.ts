/**
 * Authenticates every request that carries `Authorization` (SPEC.md §5): the `acs:`/`oauth:`
 * prefix is stripped and the token checked with the token service. A header with an inactive token
 * is a 401, never a silent downgrade; no header leaves the request anonymous, and each route says
 * whether that is enough.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseBearer } from '../auth/index.js';
import type { Principal, TokenChecker } from '../auth/index.js';
import { ErxError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | undefined;
  }
  interface FastifyContextConfig {
    /** The route authenticates clients itself (OAuth: HTTP Basic), not by bearer token. */
    clientAuth?: boolean;
  }
}

/**
 * The checks the hook needs: any token, and, while its address is over budget, only the tokens
 * the checker already knows active (see `CachedTokenChecker.checkKnown`).
 */
export interface RememberingTokenChecker extends TokenChecker {
  /** The principal of a token known active; `undefined` for any other, without a lookup. */
  checkKnown(token: string): Promise<Principal | undefined>;
}

/**
 * A budget of failed token checks per client address. A refused token never reaches the rate
 * limit (that runs once the subject is known), so without this anyone could try tokens, and make
 * erx ask the token service, as fast as they can send them (OWASP API4).
 */
export interface FailedCheckLimit {
  /** The `too_many_requests` to answer once the address has used up its failures, else none. */
  refusal(request: FastifyRequest): Promise<ErxError | undefined>;
  /** Counts one failed check of the address. */
  count(request: FastifyRequest): Promise<void>;
}

/**
 * Installs the hook that sets `request.principal`. The token is checked before its address's
 * failures are looked at: a valid token is never refused because others at its address (a NAT, a
 * proxy) sent bad ones. Once an address has used up its failures, only tokens the checker knows
 * active are answered; the rest are 429 without asking the token service.
 */
export function installAuth(
  app: FastifyInstance,
  checker: RememberingTokenChecker,
  failures?: FailedCheckLimit,
): void {
  app.decorateRequest('principal', undefined);
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.clientAuth) return;
    const token = parseBearer(request.headers.authorization, request.headers['token-type']);
    if (token === undefined) return;
    const refusal = await failures?.refusal(request);
    if (refusal !== undefined) {
      const known = await checker.checkKnown(token);
      if (!known) throw refusal;
      request.principal = known;
      return;
    }
    const principal = await checker.check(token);
    if (!principal) {
      await failures?.count(request);
      throw new ErxError('unauthorized', 'The bearer token is not active.', {
        causeCode: 'invalid_token',
      });
    }
    request.principal = principal;
  });
}

/** The caller of a route that needs a token (401 without one). */
export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw new ErxError('unauthorized', 'A valid bearer token is required.');
  return request.principal;
}
