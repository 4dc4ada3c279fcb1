/**
 * Authorization headers that must never authenticate (SPEC.md §5: only `Bearer acs:<token>` or
 * `Bearer oauth:<token>`), each built around a valid token so that only the form is wrong.
 */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../../support/server.js';

/** The header the seed shows: `Bearer acs:<token>`. */
export const bearer = (token: string): string => `Bearer acs:${token}`;
/** A token no one issued, shaped like the embedded service's own. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Headers that are not `Bearer acs:|oauth:<token>` around the owner's valid token. */
export function malformed(actor: Actor): [string, string][] {
  const t = actor.token;
  return [
    ['empty header', ''],
    ['scheme only', 'Bearer'],
    ['prefix without token', 'Bearer acs:'],
    ['token and trailing word', `Bearer acs:${t} extra`],
    ['two tokens', `Bearer acs:${t},acs:${t}`],
    ['character outside b64token', `Bearer acs:${t}%`],
    ['prefix twice', `Bearer acs:acs:${t}`],
    ['overlong token', `Bearer acs:${'A'.repeat(5000)}`],
  ];
}

/** Well-formed headers of another scheme or prefix around the owner's valid token. */
export function wrongPrefix(actor: Actor): [string, string][] {
  const t = actor.token;
  const basic = Buffer.from(`${actor.clientId}:${actor.secret}`).toString('base64');
  return [
    ['unknown prefix', `Bearer xyz:${t}`],
    ['unknown prefix, empty token', 'Bearer xyz:'],
    ['no prefix', `Bearer ${t}`],
    ['prefix in capitals', `Bearer ACS:${t}`],
    ['other scheme', `Token acs:${t}`],
    ['HTTP Basic with valid client credentials', `Basic ${basic}`],
    ['no scheme', `acs:${t}`],
  ];
}
