/**
 * Odd headers and query strings: content types (tabs, parameters, case, missing, several),
 * `Authorization` variants, `traceparent` and `Idempotency-Key` garbage, repeated, huge and
 * badly percent-encoded query strings. Header values stay within what HTTP/1.1 can carry (no
 * CR, LF or NUL; Latin-1), so the same request can go over a real socket.
 */
import type { Prng } from './prng.js';
import { rep } from './repeat.js';

/** A header value, or several of the same name. */
export type HeaderValue = string | string[];

/** A content type for a body route: the expected one mostly, odd forms often. */
export function contentType(rng: Prng, expected: string): HeaderValue | undefined {
  if (rng.chance(0.55)) return expected;
  return rng.pick<HeaderValue | undefined>([
    undefined,
    '',
    expected.toUpperCase(),
    `${expected}; charset=utf-8`,
    `${expected};charset=UTF-8`,
    `${expected}\t;\tcharset=utf-8`,
    `${expected}; charset=utf-16`,
    `${expected}; charset=`,
    `${expected};;;`,
    `${expected}; a=b; c="d;e"`,
    ` ${expected}`,
    `${expected}x`,
    `x${expected}`,
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    'application/*',
    '*/*',
    'text/html',
    'application/merge-patch+json',
    'application/json, text/plain',
    [expected, 'text/plain'],
    [expected, expected],
    `${expected}; charset=${rep('x', 2000)}`,
    'application/\u00e9',
    'application/json\t',
    ';',
  ]);
}

/** An `Authorization` header for `token`: valid mostly, in every malformed form sometimes. */
export function authorization(rng: Prng, token: string | undefined): HeaderValue | undefined {
  if (token !== undefined && rng.chance(0.6)) return `Bearer acs:${token}`;
  const t = token ?? 'unknown-token';
  return rng.pick<HeaderValue | undefined>([
    undefined,
    token === undefined ? undefined : `Bearer oauth:${t}`,
    token === undefined ? undefined : `bearer acs:${t}`,
    token === undefined ? undefined : `BEARER  acs:${t}`,
    'Bearer',
    'Bearer ',
    'Bearer acs:',
    `Bearer ${t}`,
    `Bearer acs:${t} extra`,
    `Bearer acs:${t}==`,
    `Bearer acs:${t}\t`,
    `Bearer\tacs:${t}`,
    `Bearer acs:${t.slice(0, -1)}`,
    `Bearer xyz:${t}`,
    `Bearer acs:${rep('A', 5000)}`,
    `Bearer acs:${rep('A', 4096)}`,
    'Bearer acs:\u00e9\u00e8',
    `Basic ${Buffer.from('doctor1:test-secret-0123456789').toString('base64')}`,
    'Basic !!!',
    'Basic ',
    'Digest username="x"',
    `Bearer acs:${t}, Bearer acs:${t}`,
    [`Bearer acs:${t}`, `Bearer acs:${t}`],
    '',
    ' ',
    'acs:' + t,
  ]);
}

/** A `traceparent`: absent, valid, or garbage. */
export function traceparent(rng: Prng): HeaderValue | undefined {
  if (rng.chance(0.6)) return undefined;
  const trace = rng.bytes(16).toString('hex');
  const span = rng.bytes(8).toString('hex');
  return rng.pick<HeaderValue>([
    `00-${trace}-${span}-01`,
    `ff-${trace}-${span}-01`,
    `00-${rep('0', 32)}-${span}-01`,
    `00-${trace}-${rep('0', 16)}-01`,
    `00-${trace.toUpperCase()}-${span}-01`,
    `00-${trace}-${span}-01-extra`,
    `00-${trace}-${span}`,
    `${rep('00-', 1000)}`,
    `00-${trace}-${span}-0g`,
    rep(' ', 3000),
    '\t',
    [`00-${trace}-${span}-01`, `00-${trace}-${span}-01`],
    rep('-', 54),
    `00-${rep('a', 10000)}`,
  ]);
}

/** An `Idempotency-Key`: absent mostly, valid, reused, or garbage. */
export function idempotencyKey(rng: Prng): HeaderValue | undefined {
  if (rng.chance(0.7)) return undefined;
  return rng.pick<HeaderValue>([
    `k-${rng.int(1e9)}`,
    `k-${rng.int(20)}`,
    '',
    ' ',
    rep('x', 200),
    rep('x', 201),
    rep('x', 8000),
    'a b',
    '\u00e9',
    '\t',
    ['a', 'b'],
    'key"with\'quotes',
  ]);
}

/** A query string (with `?`) from the route's own parameters, mutated. */
export function query(rng: Prng, valid: string): string {
  if (rng.chance(0.6)) return valid;
  const name = valid.slice(1).split('=')[0] || 'x';
  return rng.pick([
    '',
    '?',
    '?&&&',
    '?=',
    `?${name}`,
    `?${name}=`,
    `${valid}&${valid.slice(1)}`,
    `${valid}&${name}=other`,
    `?${name}[]=true`,
    `?${name}[a]=1`,
    `?${name}=${rep('a', rng.pick([501, 5000, 60000]))}`,
    `?${name}=%`,
    `?${name}=%zz`,
    `?${name}=%E0%A4%A`,
    `?${name}=%00`,
    `?${name}=%ED%A0%80`,
    `?__proto__[polluted]=1&${name}=x`,
    `?constructor[prototype][polluted]=1`,
    `?__proto__=x`,
    `${valid}#frag`,
    `?${rep('a=1&', 2000)}`,
    `?${name}=\u00e9`,
    `?${name}=true;false`,
  ]);
}
