/**
 * Test support: real HTTP servers on 127.0.0.1 that record every request, for the checkers of
 * tokens issued elsewhere, and a seed GetTokenInfo provider backed by the embedded token service.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pepper } from '../../src/auth/pepper.js';
import { TokenService } from '../../src/auth/token-service.js';
import { ErxError } from '../../src/errors.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

/** A request as the server read it, its body as a form. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/** How a server answers a request. */
export type Handler = (request: Received, response: ServerResponse) => void | Promise<void>;

/** A server of {@link startServer}: its URLs, what it received, and its end. */
export interface LocalServer {
  url(path: string): string;
  received: Received[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and an ephemeral port that records every request. */
export async function startServer(handle: Handler): Promise<LocalServer> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: Received = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
    };
    received.push(request);
    await handle(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `body` as JSON with `status`. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** For `assert.rejects`: the 503 a checker fails closed with. */
export function isUnavailable(error: unknown): boolean {
  return error instanceof ErxError && error.code === 'service_unavailable';
}

/** The seed's GetTokenInfo path. */
export const GET_TOKEN_INFO = '/REST/v1/OAuth/GetTokenInfo';
/** erx's own credentials at the provider. */
export const ERX = { clientId: 'erx-service', clientSecret: 'erx-service-secret' };
/** The pepper of the tests' embedded token services. */
export const PEPPER = new Pepper(randomBytes(32));

/** A seed GetTokenInfo provider backed by the embedded token service, and a token it knows. */
export async function startGetTokenInfoProvider() {
  const tokens = new TokenService(openSqliteStore(':memory:'), PEPPER);
  await tokens.addClient({
    ...ERX,
    secret: ERX.clientSecret,
    role: 'prescriber',
    name: 'erx',
    sub: 'erx',
  });
  await tokens.addClient({
    clientId: 'pharma1',
    secret: 'pharmacy-secret-1',
    role: 'pharmacist',
    name: 'Apotheke am Platz',
    sub: 'HIN|pharma1',
  });
  // The issue time, bracketed by the clock: a busy machine may take seconds to get here.
  const issuedFrom = Math.floor(Date.now() / 1000);
  const issued = await tokens.issueToken({
    grantType: 'client_credentials',
    clientId: 'pharma1',
    clientSecret: 'pharmacy-secret-1',
  });
  const server = await startServer(async (request, response) => {
    try {
      const info = await tokens.tokenInfo({
        token: request.form.get('token') ?? undefined,
        clientId: request.form.get('client_id') ?? undefined,
        clientSecret: request.form.get('client_secret') ?? undefined,
      });
      json(response, 200, info);
    } catch (error) {
      const refused = error instanceof ErxError && error.code === 'unauthorized';
      json(response, refused ? 401 : 400, {
        error: refused ? 'invalid_client' : 'invalid_request',
      });
    }
  });
  const issuedTo = Math.ceil(Date.now() / 1000);
  return { server, token: issued.access_token, issuedFrom, issuedTo };
}
