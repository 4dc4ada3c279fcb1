/**
 * Rate limits (SPEC.md §9): per token subject for authenticated calls, per address for anonymous
 * ones and for failed token checks; `0` turns a limit off. Runs after authentication so the
 * subject is known. The address is the socket's, or, from a proxy listed in `ERX_TRUST_PROXY`, the
 * client its `X-Forwarded-For` names (Fastify's `trustProxy`, set in `buildApp`).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { ErxError } from '../errors.js';
import type { FailedCheckLimit } from './auth-hook.js';

const WINDOW_MS = 1000;

function tooMany(ttlMs: number): ErxError {
  return new ErxError('too_many_requests', 'Too many requests; retry later.', {
    retryAfter: Math.max(1, Math.ceil(ttlMs / 1000)),
  });
}

function keyOf(request: FastifyRequest): string {
  return request.principal ? `sub:${request.principal.sub}` : `ip:${request.ip}`;
}

/** Registers `@fastify/rate-limit` with erx's keys, limits and error shape. */
export async function installRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const limitOf = (request: FastifyRequest): number =>
    request.principal ? config.rateLimitSubject : config.rateLimitAnon;
  await app.register(rateLimit, {
    global: true,
    hook: 'preHandler',
    timeWindow: WINDOW_MS,
    keyGenerator: keyOf,
    max: (request) => limitOf(request) || 1,
    allowList: (request) => limitOf(request) === 0,
    errorResponseBuilder: (_request, context) => tooMany(context.ttl),
  });
}

/**
 * Failed token checks per address, within the anonymous budget (a caller whose token fails is
 * anonymous); undefined when that limit is off. Needs {@link installRateLimit} first.
 */
export function failedCheckLimit(
  app: FastifyInstance,
  config: Config,
): FailedCheckLimit | undefined {
  if (config.rateLimitAnon === 0) return undefined;
  // A store of its own: failures must not use up the address's budget for anonymous verify.
  const limiter = app.createRateLimit({
    timeWindow: WINDOW_MS,
    max: config.rateLimitAnon,
    keyGenerator: (request) => `ip:${request.ip}`,
    allowList: () => false,
  });
  return {
    refusal: async (request) => {
      const state = await limiter(request, { increment: false });
      return !state.isAllowed && state.remaining === 0 ? tooMany(state.ttl) : undefined;
    },
    count: async (request) => {
      await limiter(request);
    },
  };
}
