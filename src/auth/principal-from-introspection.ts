/**
 * Reads the answer of an external token service, seed §2.6 GetTokenInfo or RFC 7662 §2.2
 * introspection, into a {@link Principal}. Both protocols share `active`, `scope`, `client_id`,
 * `sub` and `exp`; the seed adds `name` and `expires_in`, RFC 7662 has `username`.
 */
import { ErxError } from '../errors.js';
import type { Role } from '../store/types.js';
import type { Principal } from './principal.js';
import { isRole } from './role.js';

const MAX_FIELD = 256;
const CONTROL = /\p{Cc}/u;

function text(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FIELD) return undefined;
  return CONTROL.test(value) ? undefined : value;
}

function seconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The one role a space-separated `scope` grants; `undefined` for none or both. */
export function roleFromScope(scope: unknown): Role | undefined {
  if (typeof scope !== 'string') return undefined;
  const roles = new Set(scope.split(/\s+/).filter(isRole));
  return roles.size === 1 ? [...roles][0] : undefined;
}

/**
 * The principal an external token-check answer describes at `nowSeconds`; `undefined` when the
 * token is inactive or active without what erx needs (one role, `sub`, an expiry). Throws
 * `service_unavailable` when the answer is not a token-check answer at all.
 */
export function principalFromIntrospection(
  body: unknown,
  nowSeconds: number,
): Principal | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badAnswer();
  const fields = body as Record<string, unknown>;
  if (typeof fields.active !== 'boolean') throw badAnswer();
  if (!fields.active) return undefined;
  // Active for the provider but not usable by erx: refused as inactive (401), never guessed.
  const role = roleFromScope(fields.scope);
  const sub = text(fields.sub);
  // `expires_in` is relative, so clock skew between the two services does not matter.
  const expiresIn = seconds(fields.expires_in);
  const expiresAt = expiresIn !== undefined ? nowSeconds + expiresIn : seconds(fields.exp);
  if (role === undefined || sub === undefined || expiresAt === undefined) return undefined;
  if (expiresAt <= nowSeconds) return undefined;
  return {
    sub,
    name: text(fields.name) ?? text(fields.username) ?? sub,
    role,
    clientId: text(fields.client_id) ?? sub,
    expiresAt,
  };
}

function badAnswer(): ErxError {
  return new ErxError('service_unavailable', 'The token service is not available.', {
    detail: { reason: 'token service answered something that is not token information' },
  });
}
