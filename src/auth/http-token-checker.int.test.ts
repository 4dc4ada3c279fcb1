import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ErxError } from '../errors.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { parseBasicCredentials } from './client-credentials.js';
import { createTokenChecker } from './create-token-checker.js';
import { HttpTokenChecker } from './http-token-checker.js';
import { Pepper } from './pepper.js';
import { TokenService } from './token-service.js';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

type Handler = (request: Received, response: ServerResponse) => void | Promise<void>;

interface LocalServer {
  url(path: string): string;
  received: Received[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and an ephemeral port that records every request. */
async function startServer(handle: Handler): Promise<LocalServer> {
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

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function isUnavailable(error: unknown): boolean {
  return error instanceof ErxError && error.code === 'service_unavailable';
}

const GET_TOKEN_INFO = '/REST/v1/OAuth/GetTokenInfo';
const ERX = { clientId: 'erx-service', clientSecret: 'erx-service-secret' };
const NOW_S = Math.floor(Date.now() / 1000);
const PEPPER = new Pepper(randomBytes(32));

/** A seed GetTokenInfo provider backed by the embedded token service, and a token it knows. */
async function startGetTokenInfoProvider() {
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

describe('HttpTokenChecker against a seed GetTokenInfo provider (seed §4.3)', () => {
  let provider: Awaited<ReturnType<typeof startGetTokenInfoProvider>>;

  before(async () => {
    provider = await startGetTokenInfoProvider();
  });
  after(() => provider.server.close());

  function checker(clientSecret = ERX.clientSecret): HttpTokenChecker {
    const url = provider.server.url(GET_TOKEN_INFO);
    return new HttpTokenChecker({ url, ...ERX, clientSecret, protocol: 'gettokeninfo' });
  }

  it('sends the three form fields and reads the principal', async () => {
    const principal = await checker().check(provider.token);
    assert.equal(principal?.sub, 'HIN|pharma1');
    assert.equal(principal?.name, 'Apotheke am Platz');
    assert.equal(principal?.role, 'pharmacist');
    assert.equal(principal?.clientId, 'pharma1');
    assert.ok(principal !== undefined);
    assert.ok(principal.expiresAt >= provider.issuedFrom + 3600 - 1, 'expires an hour after issue');
    assert.ok(principal.expiresAt <= provider.issuedTo + 3600 + 1, 'expires an hour after issue');
    const request = provider.server.received.at(-1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, GET_TOKEN_INFO);
    assert.equal(request?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request?.headers.authorization, undefined);
    assert.deepEqual([...(request?.form.keys() ?? [])].sort(), [
      'client_id',
      'client_secret',
      'token',
    ]);
    assert.equal(request?.form.get('token'), provider.token);
    assert.equal(request?.form.get('client_id'), ERX.clientId);
    assert.equal(request?.form.get('client_secret'), ERX.clientSecret);
  });

  it('answers undefined for a token the provider calls inactive', async () => {
    assert.equal(await checker().check(`${provider.token}x`), undefined);
  });

  it('fails closed when the provider refuses erx own credentials (401)', async () => {
    await assert.rejects(checker('wrong-secret-123').check(provider.token), isUnavailable);
  });
});

describe('HttpTokenChecker against an RFC 7662 introspection endpoint', () => {
  let server: LocalServer;
  const ACTIVE = 'active-token-1';

  before(async () => {
    server = await startServer((request, response) => {
      const caller = parseBasicCredentials(request.headers.authorization);
      if (caller?.clientId !== ERX.clientId || caller.clientSecret !== ERX.clientSecret) {
        json(response, 401, { error: 'invalid_client' });
        return;
      }
      if (request.form.get('token') !== ACTIVE) {
        json(response, 200, { active: false });
        return;
      }
      json(response, 200, {
        active: true,
        scope: 'openid prescriber',
        client_id: 'pis-7',
        username: 'Dr. Beat Beispiel',
        sub: 'HIN|doc7',
        exp: NOW_S + 900,
        token_type: 'Bearer',
      });
    });
  });
  after(() => server.close());

  function checker(): HttpTokenChecker {
    return new HttpTokenChecker({ url: server.url('/introspect'), ...ERX, protocol: 'rfc7662' });
  }

  it('uses HTTP Basic, sends only the token and its hint', async () => {
    assert.deepEqual(await checker().check(ACTIVE), {
      sub: 'HIN|doc7',
      name: 'Dr. Beat Beispiel',
      role: 'prescriber',
      clientId: 'pis-7',
      expiresAt: NOW_S + 900,
    });
    const request = server.received.at(-1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(parseBasicCredentials(request?.headers.authorization), ERX);
    assert.deepEqual(
      [...(request?.form.entries() ?? [])],
      [
        ['token', ACTIVE],
        ['token_type_hint', 'access_token'],
      ],
    );
  });

  it('answers undefined for an inactive token', async () => {
    assert.equal(await checker().check('unknown-token'), undefined);
  });
});

describe('HttpTokenChecker fails closed (SPEC.md §5)', () => {
  const servers: LocalServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  async function serve(handle: Handler): Promise<LocalServer> {
    const server = await startServer(handle);
    servers.push(server);
    return server;
  }

  /**
   * An answer held until the test lets it go (or 30 s pass, so that a checker without a time limit
   * fails instead of hanging): a check that rejects while it is held gave up at its own limit,
   * however slow the machine.
   */
  function heldAnswer(): {
    released: Promise<void>;
    isReleased: () => boolean;
    release: () => void;
  } {
    let letGo = (): void => undefined;
    let released = false;
    const promise = new Promise<void>((resolve) => (letGo = resolve));
    const guard = setTimeout(() => release(), 30_000);
    const release = (): void => {
      clearTimeout(guard);
      released = true;
      letGo();
    };
    return { released: promise, isReleased: () => released, release };
  }

  function checkerFor(url: string, timeoutMs = 2000): HttpTokenChecker {
    return new HttpTokenChecker({ url, ...ERX, protocol: 'gettokeninfo', timeoutMs });
  }

  it('when nothing listens on the port', async () => {
    const gone = await startServer((_request, response) => json(response, 200, { active: false }));
    const url = gone.url(GET_TOKEN_INFO);
    await gone.close();
    await assert.rejects(checkerFor(url).check('t'), isUnavailable);
  });

  it('when the answer comes later than the time limit, within about that limit', async () => {
    const held = heldAnswer();
    const slow = await serve(async (_request, response) => {
      await held.released;
      if (!response.destroyed) json(response, 200, { active: false });
    });
    try {
      const started = performance.now();
      await assert.rejects(checkerFor(slow.url(GET_TOKEN_INFO), 200).check('t'), isUnavailable);
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 150, `gave up after ${elapsed} ms, before its limit`);
      assert.equal(held.isReleased(), false, 'waited for the answer instead of its limit');
    } finally {
      held.release();
    }
  });

  it('when the body trickles in past the time limit', async () => {
    const held = heldAnswer();
    const trickle = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"active":');
      await held.released;
      if (!response.destroyed) response.end('false}');
    });
    try {
      await assert.rejects(checkerFor(trickle.url(GET_TOKEN_INFO), 200).check('t'), isUnavailable);
      assert.equal(held.isReleased(), false, 'waited for the rest of the body');
    } finally {
      held.release();
    }
  });

  it('when the body trickles in past the time limit while garbage is collected', async () => {
    // Fetch reaches its request through a weak reference: collected, an abort alone did nothing.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = heldAnswer();
    const trickle = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"active":');
      await held.released;
      if (!response.destroyed) response.end('false}');
    });
    const collecting = setInterval(gc, 10);
    try {
      const checks = Array.from({ length: 5 }, () =>
        assert.rejects(checkerFor(trickle.url(GET_TOKEN_INFO), 200).check('t'), isUnavailable),
      );
      await Promise.all(checks);
      assert.equal(held.isReleased(), false, 'waited for the rest of the body');
    } finally {
      clearInterval(collecting);
      held.release();
    }
  });

  const answers: [string, Handler][] = [
    ['on status 500', (_q, r) => json(r, 500, { error: 'boom' })],
    ['on status 401', (_q, r) => json(r, 401, { error: 'invalid_client' })],
    ['on status 204', (_q, r) => r.writeHead(204).end()],
    ['on a 200 that is not JSON', (_q, r) => r.writeHead(200).end('<html>ok</html>')],
    ['on a 200 with an empty body', (_q, r) => r.writeHead(200).end()],
    ['on a 200 JSON array', (_q, r) => json(r, 200, [{ active: true }])],
    ['on a 200 JSON object without active', (_q, r) => json(r, 200, { sub: 'x' })],
    [
      'on an answer larger than 64 KiB',
      (_q, r) => json(r, 200, { active: false, pad: 'x'.repeat(70_000) }),
    ],
    ['on a redirect', (_q, r) => r.writeHead(302, { location: '/elsewhere' }).end()],
  ];
  for (const [label, handle] of answers) {
    it(label, async () => {
      const server = await serve(handle);
      await assert.rejects(checkerFor(server.url(GET_TOKEN_INFO)).check('t'), isUnavailable);
      assert.deepEqual(
        server.received.map((r) => r.path),
        [GET_TOKEN_INFO],
        'asked once, never followed anywhere',
      );
    });
  }
});

describe('createTokenChecker', () => {
  let provider: Awaited<ReturnType<typeof startGetTokenInfoProvider>>;
  let introspection: LocalServer;

  before(async () => {
    provider = await startGetTokenInfoProvider();
    introspection = await startServer((_request, response) =>
      json(response, 200, { active: false }),
    );
  });
  after(() => Promise.all([provider.server.close(), introspection.close()]));

  it('checks embedded tokens against the store when no ERX_AUTH_URL is set', async () => {
    const store = openSqliteStore(':memory:');
    const tokens = new TokenService(store, PEPPER);
    const { secret } = await tokens.addClient({
      clientId: 'doc1',
      role: 'prescriber',
      name: 'Dr. A',
      sub: 'HIN|doc1',
    });
    const issued = await tokens.issueToken({
      grantType: 'client_credentials',
      clientId: 'doc1',
      clientSecret: secret,
    });
    const none = { authUrl: undefined, authClientId: undefined, authClientSecret: undefined };
    const checker = createTokenChecker(none, store, PEPPER);
    assert.equal((await checker.check(issued.access_token))?.sub, 'HIN|doc1');
  });

  it('speaks GetTokenInfo to a /GetTokenInfo URL, and caches the answer', async () => {
    const lookups: string[] = [];
    const settings = {
      authUrl: provider.server.url(GET_TOKEN_INFO),
      authClientId: ERX.clientId,
      authClientSecret: ERX.clientSecret,
    };
    const checker = createTokenChecker(settings, openSqliteStore(':memory:'), undefined, {
      onLookup: (result) => lookups.push(result),
    });
    const before = provider.server.received.length;
    assert.equal((await checker.check(provider.token))?.sub, 'HIN|pharma1');
    assert.equal((await checker.check(provider.token))?.sub, 'HIN|pharma1');
    assert.equal(provider.server.received.length, before + 1);
    assert.deepEqual(lookups, ['miss', 'hit']);
  });

  it('speaks RFC 7662 to any other URL, or when told to', async () => {
    const settings = {
      authUrl: introspection.url('/oauth2/introspect'),
      authClientId: ERX.clientId,
      authClientSecret: ERX.clientSecret,
    };
    const store = openSqliteStore(':memory:');
    await createTokenChecker(settings, store, undefined).check('t1');
    await createTokenChecker(
      { ...settings, authUrl: introspection.url(GET_TOKEN_INFO), authProtocol: 'rfc7662' },
      store,
      undefined,
    ).check('t2');
    for (const request of introspection.received) {
      assert.deepEqual(parseBasicCredentials(request.headers.authorization), ERX);
      assert.equal(request.form.get('token_type_hint'), 'access_token');
      assert.equal(request.form.get('client_secret'), null);
    }
    assert.equal(introspection.received.length, 2);
  });

  it('refuses an external URL without erx client credentials', () => {
    const settings = {
      authUrl: introspection.url('/introspect'),
      authClientId: 'erx',
      authClientSecret: undefined,
    };
    assert.throws(
      () => createTokenChecker(settings, openSqliteStore(':memory:'), undefined),
      (error: unknown) => error instanceof ErxError && error.code === 'bad_request',
    );
  });
});
