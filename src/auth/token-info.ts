/**
 * The answer of the token check (seed §2.6, §4.3): seed fields plus `client_id`, `scope` and
 * `sub` (SPEC.md §5); an invalid or expired token answers `active: false` and nothing else.
 */
import type { ClientRow, Role, TokenRow } from '../store/types.js';

/** Token information of an active token. */
export interface ActiveTokenInfo {
  active: true;
  description: string;
  /** Expiry, unix seconds. */
  exp: number;
  /** Remaining lifetime, seconds. */
  expires_in: number;
  /** Expiry as a UTC date-time, e.g. `2024-08-16T13:12:12Z`. */
  expires_on: string;
  name: string;
  client_id: string;
  /** The client's role. */
  scope: Role;
  /** The client's actor id. */
  sub: string;
}

/** Token information of an unknown, expired or otherwise invalid token: exactly this. */
export interface InactiveTokenInfo {
  active: false;
}

export type TokenInfo = ActiveTokenInfo | InactiveTokenInfo;

/** The one inactive answer (seed §2.6: it carries only `active`). */
export function inactiveTokenInfo(): InactiveTokenInfo {
  return { active: false };
}

/** Token information of an active `token` of `client` at `nowMs` (unix ms). */
export function activeTokenInfo(
  client: ClientRow,
  token: TokenRow,
  nowMs: number,
): ActiveTokenInfo {
  const exp = Math.floor(token.expiresAt / 1000);
  return {
    active: true,
    description: client.description,
    exp,
    expires_in: Math.max(0, exp - Math.floor(nowMs / 1000)),
    // Whole seconds, as `exp` is; toISOString is always UTC.
    expires_on: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    name: client.name,
    client_id: client.clientId,
    scope: client.role,
    sub: client.sub,
  };
}
