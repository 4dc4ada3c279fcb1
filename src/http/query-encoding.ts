/**
 * Query strings must be valid percent-encoded UTF-8 (RFC 3986 §2.1, WHATWG URL). Fastify's parser
 * keeps a value it cannot decode as it stands (`%FF`, `%E2%82`, `%ZZ`, a lone `%`), so a reason
 * sent as `?reason=%FF` would be recorded, signed, as the text `%FF`: not what the caller meant,
 * and different from what any other reader of that URL decodes. Such a query is refused (400),
 * naming the parameter.
 */
import type { FastifyRequest } from 'fastify';
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';

/** True when `text` (a name or value of a query, `+` standing for a space) decodes as UTF-8. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text.replaceAll('+', ' '));
    return true;
  } catch {
    // URIError: a `%` not followed by two hex digits, or bytes that are not UTF-8 (overlong
    // forms and surrogates included).
    return false;
  }
}

/**
 * The parameters of the query of `url` whose name or value is not percent-encoded UTF-8, by their
 * decoded names; `undefined` stands for one whose name does not decode.
 */
export function malformedQueryParameters(url: string): (string | undefined)[] {
  const start = url.indexOf('?');
  if (start < 0) return [];
  const broken = new Set<string | undefined>();
  for (const part of url.slice(start + 1).split('&')) {
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    const value = equals < 0 ? '' : part.slice(equals + 1);
    if (!decodes(name)) broken.add(undefined);
    else if (!decodes(value)) broken.add(decodeURIComponent(name.replaceAll('+', ' ')));
  }
  return [...broken];
}

/** The parameters the route's query schema lists. */
function knownParameters(request: FastifyRequest): string[] {
  const schema = request.routeOptions.schema?.querystring as
    { properties?: Record<string, unknown> } | undefined;
  return Object.keys(schema?.properties ?? {});
}

/**
 * A route hook (`preValidation`, after the caller is known): refuses the request with 400
 * `bad_request` when a parameter of its query is not percent-encoded UTF-8. A parameter the route
 * knows is named (`/reason`); any other is reported as the query (an empty path), so no text of
 * the caller's is sent back.
 */
export async function refuseMalformedQuery(request: FastifyRequest): Promise<void> {
  const broken = malformedQueryParameters(request.url);
  if (broken.length === 0) return;
  const known = knownParameters(request);
  const paths = new Set(
    broken.map((name) => (name !== undefined && known.includes(name) ? `/${name}` : '')),
  );
  const violations: Violation[] = [...paths].map((path) => ({
    path,
    code: 'not_percent_encoded',
    message: 'must be percent-encoded UTF-8',
    params: {},
  }));
  const named = [...paths].filter((path) => path !== '').map((path) => path.slice(1));
  throw new ErxError(
    'bad_request',
    named.length > 0
      ? `The query parameter ${named.join(', ')} is not percent-encoded UTF-8.`
      : 'The query is not percent-encoded UTF-8.',
    { violations },
  );
}
