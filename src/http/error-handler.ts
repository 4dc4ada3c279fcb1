/**
 * Every error of every route leaves erx in the seed §7 shape (SPEC.md §8): domain errors with
 * their code, Fastify's own (404, 413, 415, bad JSON) mapped by status, anything else a 500 whose
 * details stay in the log.
 */
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { PLAIN_TEXT_PATTERN } from '../api/params.js';
import { NO_CONTROL_CHARACTERS } from '../chmed16a/schema.js';
import { isErxError } from '../errors.js';
import type { ErrorCode, Violation, ViolationParams } from '../errors.js';
import { schemaViolation } from '../json/schema-violation.js';
import type { NamedPatterns } from '../json/schema-violation.js';
import { errorBody } from './error-body.js';
import { HTTP_STATUS, codeForStatus } from './status.js';
import { formatTraceparent, traceFor } from './trace.js';
import type { TraceIds } from './trace.js';

const FIXED_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  bad_request: 'The request is malformed.',
  unauthorized: 'A valid bearer token is required.',
  forbidden: 'The caller may not do this.',
  not_found: 'Not found.',
  conflict: 'The request conflicts with the current state.',
  locked: 'The prescription is locked.',
  payload_too_large: 'The request body is larger than 65536 bytes.',
  unsupported_media_type: 'The Content-Type is not supported by this route.',
  too_many_requests: 'Too many requests; retry later.',
  service_unavailable: 'A service erx depends on is unavailable; retry later.',
  internal_error: 'Internal error.',
};

/** Answers `code` in the error shape, with the request's trace. */
export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  message: string,
  causeCode?: string,
  violations?: readonly Violation[],
  params?: ViolationParams,
): FastifyReply {
  if (code === 'unauthorized') reply.header('www-authenticate', 'Bearer realm="erx"');
  return reply
    .code(HTTP_STATUS[code])
    .type('application/json; charset=utf-8')
    .send(errorBody(code, message, request.trace, causeCode, violations, params));
}

// The route schemas' own patterns (`src/api`), reported with their code.
const ROUTE_PATTERNS: NamedPatterns = {
  [PLAIN_TEXT_PATTERN]: {
    code: 'plain_text',
    params: {},
    message: 'must not hold control or bidirectional control characters',
  },
  [NO_CONTROL_CHARACTERS]: {
    code: 'plain_text',
    params: {},
    message: 'must not hold control characters',
  },
};

function validationViolations(error: FastifyError): Violation[] {
  const where = error.validationContext ? `${error.validationContext} ` : '';
  return (error.validation ?? []).flatMap((v) => {
    const violation = schemaViolation(v as ErrorObject, ROUTE_PATTERNS);
    if (violation === undefined) return [];
    // Fastify's own sentence, naming the part of the request (`body`, `querystring`).
    return [{ ...violation, message: `${where}${v.message ?? 'is invalid'}` }];
  });
}

/**
 * Fastify's `frameworkErrors`: the router refuses a URL (bad percent-encoding, a parameter over
 * its length limit) before any hook runs, so the trace is made here, with span ids from `ids`.
 * Answered as the 400 the route's own parameter schema would give, without echoing the URL.
 */
export function frameworkErrorSender(
  ids: TraceIds,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (_error, request, reply) => {
    request.trace = traceFor(request.headers.traceparent, ids);
    reply.header('traceparent', formatTraceparent(request.trace));
    sendError(reply, request, 'bad_request', FIXED_MESSAGES.bad_request);
  };
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refuses a request before any route sees it (a
 * space or raw non-ASCII byte in the URL, headers over 16 KiB, broken framing). That is a 400 in
 * the error shape too (SPEC.md §8), under a fresh trace since no header of the request can be
 * read. A request timeout keeps Node's own bodiless 408: no error code of §8 names it.
 */
export function clientErrorSender(
  ids: TraceIds,
): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => sendClientError(error, socket, ids);
}

function sendClientError(error: NodeJS.ErrnoException, socket: Duplex, ids: TraceIds): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    } else {
      const trace = traceFor(undefined, ids);
      const body = JSON.stringify(errorBody('bad_request', FIXED_MESSAGES.bad_request, trace));
      socket.write(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\ntraceparent: ${formatTraceparent(trace)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    }
  }
  socket.destroy(error);
}

/** Installs the error and not-found handlers on `app`. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, request, 'not_found', 'No such route.');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isErxError(error)) {
      if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
      if (error.code === 'internal_error' || error.code === 'service_unavailable') {
        request.log.warn({ err: error, detail: error.detail }, 'dependency or internal failure');
      }
      return sendError(
        reply,
        request,
        error.code,
        error.message,
        error.causeCode,
        error.violations,
        error.params,
      );
    }
    if (error.validation) {
      return sendError(
        reply,
        request,
        'bad_request',
        'The request does not match the schema.',
        'bad_request',
        validationViolations(error),
      );
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      return sendError(reply, request, code, FIXED_MESSAGES[code]);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, 'internal_error', FIXED_MESSAGES.internal_error);
  });
}
