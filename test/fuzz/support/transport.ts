/**
 * Sending a generated request: through `app.inject()` (fast, no socket) or as raw bytes over a
 * real TCP connection, so that Node's own HTTP parser and the server's timeouts are in the path.
 */
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { FuzzAnswer } from './oracle.js';
import type { FuzzRequest } from './fuzz-request.js';

// Node keeps only the first of these when a request repeats them (http.IncomingMessage.headers).
const SINGLE = new Set(['authorization', 'content-type', 'content-length', 'host', 'user-agent']);

/** The headers as Node's HTTP server would present them: repeated ones joined or the first kept. */
function asNodeHeaders(request: FuzzRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!Array.isArray(value)) out[name] = value;
    else out[name] = SINGLE.has(name) ? (value[0] ?? '') : value.join(', ');
  }
  return out;
}

/** Sends `request` with `app.inject()`. */
export async function sendInject(app: FastifyInstance, request: FuzzRequest): Promise<FuzzAnswer> {
  const response = await app.inject({
    method: request.method as 'POST',
    url: request.url,
    headers: asNodeHeaders(request),
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
  const headers: FuzzAnswer['headers'] = {};
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name] = typeof value === 'number' ? String(value) : value;
  }
  return { status: response.statusCode, headers, body: response.rawPayload };
}

function rawRequest(request: FuzzRequest): Buffer {
  const lines = [
    `${request.method} ${request.url} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
  ];
  for (const [name, value] of Object.entries(request.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, 'utf8');
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  // The request line as UTF-8 (a raw non-ASCII URL), header values as Latin-1, as clients send them.
  const [first, ...rest] = lines;
  return Buffer.concat([
    Buffer.from(`${first}\r\n`, 'utf8'),
    Buffer.from(`${rest.join('\r\n')}\r\n\r\n`, 'latin1'),
    body ?? Buffer.alloc(0),
  ]);
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Parses a complete HTTP/1.1 response (the server closed the connection after it). */
export function parseRawResponse(bytes: Buffer): FuzzAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: bytes };
  const [statusLine = '', ...headerLines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number.isInteger(status) ? status : 0, headers, body };
}

/** Sends raw `bytes` on a fresh connection and reads until the server closes it. */
export function sendBytes(port: number, bytes: Buffer, timeoutMs = 15_000): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server may reset after answering a request it refused mid-body; what arrived counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseRawResponse(Buffer.concat(chunks)));
    });
    socket.write(bytes);
  });
}

/** Sends `request` over a real socket to the server listening on `port`. */
export function sendSocket(port: number, request: FuzzRequest): Promise<FuzzAnswer> {
  return sendBytes(port, rawRequest(request));
}
