/**
 * The request generator: for each route of SPEC.md §5 a valid request built from what the server
 * answered so far (prescription ids, links, event ids), then, most of the time, mutated in its
 * body, path, query and headers. Valid requests are kept to a moderate share: each accepted
 * dispense or create signs an event.
 */
import { gzipSync } from 'node:zlib';
import {
  mutateDispense,
  mutateDocument,
  nested,
  validDispense,
  validDocument,
} from './documents.js';
import { MED_A } from '../../support/fixtures.js';
import type { HeaderValue } from './headers.js';
import { authorization, contentType, idempotencyKey, query, traceparent } from './headers.js';
import { hostileSignedLink, mutateLink, nestedLink } from './links.js';
import { mutateText, mutateTextTimes } from './mutate.js';
import type { Prng } from './prng.js';
import type { Callers, FuzzContext, FuzzRequest, Target } from './fuzz-request.js';
import { oauth } from './token-requests.js';
import { rep } from './repeat.js';

/** 300 KiB of spaces, gzipped: over the 256 KiB inflate cap. */
const SPACES_BOMB = `CHMED16A1${gzipSync(Buffer.alloc(300 * 1024, 0x20)).toString('base64')}`;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const HTTP_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'POST'] as const;

function target(rng: Prng, ctx: FuzzContext): Target {
  return ctx.pool.length > 0
    ? (ctx.pool[ctx.pool.length - 1 - rng.int(Math.min(ctx.pool.length, 16))] as Target)
    : { id: 'none', link: undefined, medIds: [MED_A], eventIds: [] };
}

/** A path segment standing for a prescription id: a known one mostly. */
function idSegment(rng: Prng, known: string): string {
  if (rng.chance(0.8)) return known;
  return rng.pick([
    '00000000-0000-4000-8000-000000000000',
    known.toUpperCase(),
    `${known}x`,
    encodeURIComponent('__proto__'),
    'constructor',
    '%2e%2e',
    '..',
    rep('a', 100),
    rep('a', 101),
    '%E0%A4%A',
    '%00',
    '%F0%9F%92%8A',
    encodeURIComponent(`${known}\n`),
    '%',
    ' ',
    known.slice(0, -1),
  ]);
}

function caller(rng: Prng, ctx: FuzzContext, usual: keyof Callers): string {
  return rng.chance(0.85)
    ? ctx.callers[usual]
    : ctx.callers[rng.pick(['doctor', 'doctor2', 'pharmacist', 'pharmacist2'] as const)];
}

function bodyRequest(
  rng: Prng,
  valid: boolean,
  family: string,
  url: string,
  body: string | Buffer | undefined,
  type: string,
  token: string | undefined,
): FuzzRequest {
  const headers: Record<string, HeaderValue> = {};
  if (valid) {
    if (body !== undefined || rng.chance(0.5)) headers['content-type'] = type;
    if (token !== undefined) headers.authorization = `Bearer acs:${token}`;
    return { family, method: 'POST', url, headers, body };
  }
  const ct = body === undefined && rng.chance(0.5) ? undefined : contentType(rng, type);
  if (ct !== undefined) headers['content-type'] = ct;
  const auth = authorization(rng, token);
  if (auth !== undefined) headers.authorization = auth;
  return { family, method: 'POST', url, headers, body };
}

/** A create body: the document as JSON, or its CHMED16A string, raw or as a JSON string. */
function createBody(rng: Prng, valid: boolean): string {
  const doc = validDocument(rng);
  const json = valid ? JSON.stringify(doc) : mutateDocument(rng, doc);
  const form = rng.int(10);
  if (form < 7) return json;
  const chmed =
    form === 9 ? `CHMED16A0${json}` : `CHMED16A1${gzipSync(Buffer.from(json)).toString('base64')}`;
  const text = valid || rng.chance(0.5) ? chmed : mutateTextTimes(rng, chmed, 2);
  return rng.chance(0.5) ? text : JSON.stringify(text);
}

function create(rng: Prng, ctx: FuzzContext, valid: boolean): FuzzRequest {
  // Mostly `data`: a PNG costs tens of milliseconds to draw and would dominate the run.
  const format = rng.weighted([
    [valid ? 18 : 17, 'data'],
    [1, 'svg'],
    [1, 'qrcode'],
    [valid ? 0 : 1, 'pdf'],
  ] as const);
  const size = format === 'qrcode' ? '&size=64' : '';
  // A mutated query mostly keeps `output-format=data` (without it the default is a PNG).
  let q = `?output-format=${format}${size}`;
  if (!valid && rng.chance(0.3)) q = query(rng, q);
  else if (!valid && rng.chance(0.1)) {
    q += `&size=${rng.pick(['64', '2048', '0', '99999', '-1', '1e3', '0x40', '100.5'])}`;
  }
  let body: string | Buffer | undefined = createBody(rng, valid);
  if (!valid && rng.chance(0.08)) {
    body = rng.pick<string | Buffer | undefined>([
      undefined,
      '',
      '   ',
      rep('x', 64 * 1024 + 1),
      `{"Rmk":"${rep('x', 64 * 1024)}"}`,
      SPACES_BOMB,
      `CHMED16A0${nested(rng.pick([33, 1000, 20000]))}`,
      rng.bytes(rng.range(1, 300)),
      Buffer.concat([BOM, Buffer.from(String(body))]),
    ]);
  }
  return bodyRequest(
    rng,
    valid,
    'create',
    `/ePrescription/create${q}`,
    body,
    'application/json',
    caller(rng, ctx, 'doctor'),
  );
}

function verify(rng: Prng, ctx: FuzzContext, valid: boolean): FuzzRequest {
  const t = target(rng, ctx);
  const link =
    t.link ??
    `${ctx.base}#CHMED16A1H4sIAAAAAAAAA6tWKs1LLUpVslIqSS0uUQIAm+Y5kBAAAAA=&i=x&t=1&s=${rep('a', 128)}`;
  let text = link;
  if (!valid) {
    const kind = rng.int(20);
    if (kind < 13) text = mutateLink(rng, link);
    else if (kind < 17) text = hostileSignedLink(rng, ctx.base, t.id, ctx.sign);
    else if (kind < 18) text = nestedLink(ctx.base, rng.pick([33, 100, 10000]), rng.chance(0.5));
    else if (kind < 19) text = mutateText(rng, JSON.stringify(link));
    else
      text = rng.pick(['', ' \r\n', '""', 'null', `${link}${rep(' ', 65_536)}`, link.repeat(50)]);
  }
  if (rng.chance(0.2)) text = JSON.stringify(text);
  const type = rng.chance(0.5) ? 'text/plain' : 'application/json';
  const token = rng.chance(0.5) ? caller(rng, ctx, 'pharmacist') : undefined;
  return bodyRequest(rng, valid, 'verify', '/ePrescription/verify', text, type, token);
}

function dispense(rng: Prng, ctx: FuzzContext, valid: boolean): FuzzRequest {
  const t = target(rng, ctx);
  // A reason goes with force=true only (docs/decisions.md): the last one is refused.
  const force = rng.pick([
    '',
    '',
    '?force=true',
    '?force=false',
    '?force=true&reason=Notfall%20am%20Schalter',
    '?reason=Notfall',
  ]);
  const none = rng.chance(0.3);
  let body: string | undefined = none ? undefined : JSON.stringify(validDispense(rng, t.medIds));
  let q = force;
  let id = t.id;
  if (!valid) {
    const what = rng.int(10);
    if (what < 6) body = mutateDispense(rng, t.medIds);
    else if (what < 8) q = query(rng, force === '' ? '?force=true' : force);
    else id = idSegment(rng, t.id);
    if (rng.chance(0.1)) body = rng.pick(['', ' ', '\n', 'null', '[]', '"x"']);
  }
  return bodyRequest(
    rng,
    valid,
    'dispense',
    `/ePrescription/dispense/${id}${q}`,
    body,
    'application/json',
    caller(rng, ctx, 'pharmacist'),
  );
}

function simple(
  rng: Prng,
  ctx: FuzzContext,
  valid: boolean,
  family: 'revoke' | 'lock' | 'unlock' | 'cancel',
): FuzzRequest {
  const t = target(rng, ctx);
  const id = valid ? t.id : idSegment(rng, t.id);
  let path = `/ePrescription/${family}/${id}`;
  if (family === 'cancel') {
    const eventId =
      t.eventIds.length > 0 && (valid || rng.chance(0.7))
        ? rng.pick(t.eventIds)
        : rng.pick(['x', '00000000-0000-4000-8000-000000000000', t.id, rep('e', 101), '%00']);
    path += `/event/${eventId}`;
  }
  if (family === 'lock' || family === 'unlock') {
    const reason = `?reason=${encodeURIComponent(rng.pick(['Kunde am Schalter', '', 'Z\u00fcrich \u{1f48a}']))}`;
    path += valid ? reason : query(rng, reason);
  }
  const usual = family === 'revoke' ? 'doctor' : 'pharmacist';
  const body = valid || rng.chance(0.7) ? undefined : rng.pick(['', '{}', '[]', 'x', nested(100)]);
  return bodyRequest(rng, valid, family, path, body, 'application/json', caller(rng, ctx, usual));
}

/** Unknown routes, known routes with other methods, and the operator endpoints. */
function other(rng: Prng, ctx: FuzzContext): FuzzRequest {
  const method = rng.pick(HTTP_METHODS);
  const url = rng.pick([
    '/',
    '/nope',
    '/ePrescription',
    '/ePrescription/',
    '/ePrescription/verify/',
    '/ePrescription/dispense',
    '/ePrescription/dispense/',
    '/ePrescription/cancel/x/event',
    '/ePrescription/nope/x',
    '/REST/v1/OAuth',
    '/REST/v2/OAuth/token',
    '/healthz',
    '/readyz',
    '/openapi.json',
    '/%',
    '/%00',
    '/..%2f..%2fetc%2fpasswd',
    `/${rep('a', rng.pick([100, 5000]))}`,
    '/ePrescription//verify',
    '/EPRESCRIPTION/VERIFY',
    '/ePrescription/verify?x=%',
    '/__proto__',
    '/constructor/prototype',
    '/ePrescription/dispense/%2e%2e/x',
  ]);
  const headers: Record<string, HeaderValue> = {};
  const auth = authorization(rng, rng.chance(0.5) ? ctx.callers.pharmacist : undefined);
  if (auth !== undefined) headers.authorization = auth;
  const body = method === 'GET' || method === 'HEAD' || rng.chance(0.5) ? undefined : '{}';
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { family: 'other', method, url, headers, body };
}

/** Adds the cross-cutting header oddities to a request. */
function decorate(rng: Prng, request: FuzzRequest): FuzzRequest {
  const tp = traceparent(rng);
  if (tp !== undefined) request.headers.traceparent = tp;
  if (request.family !== 'verify' && request.family !== 'other') {
    const key = idempotencyKey(rng);
    if (key !== undefined) request.headers['idempotency-key'] = key;
  }
  if (rng.chance(0.02))
    request.headers['x-forwarded-for'] = rng.pick(['1.2.3.4', 'garbage', '::1, 1.1.1.1']);
  if (rng.chance(0.03))
    request.headers.accept = rng.pick(['*/*', 'application/xml', 'text/html', '\u00e9']);
  return request;
}

const FAMILIES = [
  [22, 'verify'],
  [22, 'dispense'],
  [8, 'create'],
  [6, 'revoke'],
  [7, 'cancel'],
  [6, 'lock'],
  [6, 'unlock'],
  [5, 'token'],
  [5, 'tokeninfo'],
  [7, 'other'],
] as const;

/** The next request, from `rng` and what is known of the server. */
export function generateRequest(rng: Prng, ctx: FuzzContext): FuzzRequest {
  const family = rng.weighted(FAMILIES);
  const valid = rng.chance(ctx.validShare);
  const request = build(rng, ctx, family, valid);
  return valid ? request : decorate(rng, request);
}

function build(
  rng: Prng,
  ctx: FuzzContext,
  family: (typeof FAMILIES)[number][1],
  valid: boolean,
): FuzzRequest {
  switch (family) {
    case 'verify':
      return verify(rng, ctx, valid);
    case 'dispense':
      return dispense(rng, ctx, valid);
    case 'create':
      return create(rng, ctx, valid);
    case 'revoke':
    case 'lock':
    case 'unlock':
    case 'cancel':
      return simple(rng, ctx, valid, family);
    case 'token':
    case 'tokeninfo':
      return oauth(rng, ctx, family);
    default:
      return other(rng, ctx);
  }
}
