/**
 * Body parsing (SPEC.md §5, §9). Every body is read as text first: the verify and create routes
 * take the link or document exactly as sent, even under `Content-Type: application/json` (what
 * `curl -d @file` sends); JSON bodies go through the one safe parser (depth, `__proto__`); an
 * empty body is "no body" (a full dispensation). Forms only reach the OAuth routes. A request for
 * no route is not parsed at all: whatever it carries, the answer is the 404 (SPEC.md §8).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErxError } from '../errors.js';
import { parseJsonSafe } from '../json/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route receives the body as the text it was sent as (JSON or plain text). */
    rawBody?: boolean;
    /** The route accepts `application/x-www-form-urlencoded`. */
    form?: boolean;
  }
}

function unsupported(): ErxError {
  return new ErxError('unsupported_media_type', 'The Content-Type is not supported by this route.');
}

function parseJsonBody(request: FastifyRequest, text: string): unknown {
  if (request.is404) return undefined;
  if (request.routeOptions.config.form) throw unsupported();
  if (request.routeOptions.config.rawBody) return text;
  if (text.trim() === '') return undefined;
  return parseJsonSafe(text);
}

/** Installs the JSON, plain-text and form parsers with the 64 KiB limit. */
export function installBodyParsers(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (request, body, done) => {
      try {
        done(null, parseJsonBody(request, body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'string', bodyLimit },
    (request, body, done) => {
      if (request.is404) return done(null, undefined);
      if (!request.routeOptions.config.rawBody) return done(unsupported(), undefined);
      done(null, body);
    },
  );
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (request, body, done) => {
      if (request.is404) return done(null, undefined);
      if (!request.routeOptions.config.form) return done(unsupported(), undefined);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}
