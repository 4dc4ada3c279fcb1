/**
 * Requests to the token service (SPEC.md §5: `/REST/v1/OAuth/token` and `GetTokenInfo`): forms
 * with missing, repeated and garbled fields, odd content types and HTTP Basic variants. Full
 * client credentials appear only in a small share, since each runs scrypt (tens of ms).
 */
import type { FuzzContext, FuzzRequest } from './fuzz-request.js';
import type { HeaderValue } from './headers.js';
import { contentType } from './headers.js';
import { mutateTextTimes } from './mutate.js';
import type { Prng } from './prng.js';
import { rep } from './repeat.js';

/** A token-service request; full credentials only in a small share. */
export function oauth(rng: Prng, ctx: FuzzContext, family: 'token' | 'tokeninfo'): FuzzRequest {
  const credentials = rng.chance(ctx.credentialShare);
  const fields: [string, string][] = [];
  if (family === 'token')
    fields.push([
      'grant_type',
      rng.chance(0.8) ? 'client_credentials' : rng.pick(['password', '', 'CLIENT_CREDENTIALS']),
    ]);
  else fields.push(['token', rng.pick([ctx.callers.pharmacist, '', 'unknown', rep('x', 5000)])]);
  const basic = credentials && rng.chance(0.3);
  if (!basic) {
    if (credentials || rng.chance(0.5))
      fields.push(['client_id', rng.pick([ctx.callers.clientId, 'nobody', '\u00e9'])]);
    if (credentials)
      fields.push(['client_secret', rng.pick([ctx.callers.secret, 'wrong-secret-xxxxx'])]);
  }
  let text = new URLSearchParams(fields).toString();
  if (!credentials && rng.chance(0.5)) {
    text = rng.pick([
      mutateTextTimes(rng, text, 3),
      `${text}&${text}`,
      `${text}&__proto__=x&constructor=y`,
      '%',
      '&&&=&=',
      rep('a', 70 * 1024),
      JSON.stringify(Object.fromEntries(fields)),
    ]);
    // A mutation must not add a secret: that would run scrypt outside the budget.
    if (text.includes('client_secret')) text = text.replaceAll('client_secret', 'client_sekret');
  }
  const url = family === 'token' ? '/REST/v1/OAuth/token' : '/REST/v1/OAuth/GetTokenInfo';
  const headers: Record<string, HeaderValue> = {};
  const ct = contentType(rng, 'application/x-www-form-urlencoded');
  if (ct !== undefined) headers['content-type'] = ct;
  if (basic) {
    headers.authorization = `Basic ${Buffer.from(`${ctx.callers.clientId}:${ctx.callers.secret}`).toString('base64')}`;
  } else if (rng.chance(0.2)) {
    headers.authorization = rng.pick([
      'Basic !!!',
      'Basic ',
      'Basic YQ==',
      `Basic ${Buffer.from('%zz:').toString('base64')}`,
      'Bearer acs:x',
      'Basic '.padEnd(3000, 'A'),
    ]);
  }
  return { family, method: 'POST', url, headers, body: text };
}
