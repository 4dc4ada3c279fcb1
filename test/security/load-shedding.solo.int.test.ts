/**
 * Load shedding (SPEC.md §9, OWASP API4): with `ERX_MAX_IN_FLIGHT` requests in progress, the next
 * one is answered at once with 503, `Retry-After` and the error shape; health and readiness still
 * answer; a request that finishes, or whose client goes away, frees its place. A request is in
 * progress once its body has arrived: here, while the token service holds its token check (a body
 * still arriving holds no place: test/security/slow-body.int.test.ts). With `ERX_MAX_LAG_MS`,
 * while the event loop runs that far behind, the same; and not without it. The file runs alone
 * (`.solo.`): other suites on the same cores would make the calm turns late too.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { listenServer, startTestServer } from '../support/server.js';
import type { ListeningServer, TestServer } from '../support/server.js';
import { SERVICE_CLIENT, startFakeTokenService } from './support/fake-token-service.js';
import type { FakeTokenService } from './support/fake-token-service.js';

const LIMIT = 4;
/** How long a condition the test waits for may take; within the token check's 2 s limit. */
const WAIT_MS = 1_500;

/**
 * A verify with a pharmacist's token, sent whole, so that it is in progress while the token
 * service holds its check.
 */
async function inProgress(
  url: string,
  token: string,
): Promise<{ socket: Socket; received: () => string; answer: () => Promise<string> }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', resolve));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const body = 'not a link';
  socket.write(
    `POST /ePrescription/verify HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n` +
      `Authorization: Bearer acs:${token}\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  const answer = async (): Promise<string> => {
    await closed;
    return received;
  };
  return { socket, received: () => received, answer };
}

/** Waits until `condition` holds; fails after {@link WAIT_MS}. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = performance.now() + WAIT_MS;
  while (!(await condition())) {
    assert.ok(performance.now() < deadline, `${what}: not within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function verifyAnything(server: ListeningServer) {
  return server.request('POST', '/ePrescription/verify', {
    body: 'not a link',
    contentType: 'text/plain',
  });
}

describe(`at most ${LIMIT} requests in progress (ERX_MAX_IN_FLIGHT)`, () => {
  let auth: FakeTokenService;
  let server: ListeningServer;
  before(async () => {
    auth = await startFakeTokenService();
    server = await listenServer({
      env: {
        ERX_AUTH_URL: auth.url,
        ERX_AUTH_CLIENT_ID: SERVICE_CLIENT.id,
        ERX_AUTH_CLIENT_SECRET: SERVICE_CLIENT.secret,
        ERX_MAX_IN_FLIGHT: String(LIMIT),
      },
    });
  });
  after(async () => {
    auth.holding = false;
    await server.close();
    await auth.close();
  });

  it('sheds the next request with 503 and Retry-After, serves probes, and frees places', async () => {
    auth.holding = true;
    const held = [];
    try {
      for (let i = 0; i < LIMIT; i++) held.push(await inProgress(server.url, `ph-held-${i}`));
      await until(() => auth.checks === LIMIT, 'every held request at its token check');

      const shed = await verifyAnything(server);
      assert.equal(shed.status, 503);
      assert.equal(shed.headers.get('retry-after'), '1');
      assert.equal(shed.json.error_code, 'service_unavailable');
      assert.equal(typeof shed.json.trace?.TraceID, 'string');
      assert.equal((await server.request('GET', '/healthz')).status, 200);
      assert.equal((await server.request('GET', '/readyz')).status, 200);

      // Half of the clients go away: their places are free while the other half still wait.
      const [leaving, staying] = [
        held.filter((_, i) => i % 2 === 1),
        held.filter((_, i) => i % 2 === 0),
      ];
      for (const request of leaving) request.socket.destroy();
      await until(async () => {
        const answers = await Promise.all(leaving.map(() => verifyAnything(server)));
        return answers.every((a) => a.status === 400);
      }, 'the places of the clients gone are free');
      for (const request of staying) assert.equal(request.received(), '', 'still in progress');

      // The other half finish (their own answers are ordinary refusals) and free theirs.
      auth.holding = false;
      for (const request of staying) assert.match(await request.answer(), /^HTTP\/1\.1 400 /);
    } finally {
      auth.holding = false;
      for (const request of held) request.socket.destroy();
    }
    // Every place is free again once the server has seen the sockets close: all served at once.
    await until(async () => {
      const served = await Promise.all(
        Array.from({ length: LIMIT }, () =>
          server.request('POST', '/ePrescription/verify', {
            body: 'still not a link',
            contentType: 'text/plain',
          }),
        ),
      );
      return served.every((a) => a.status === 400);
    }, 'every place free again');
  });
});

/**
 * Keeps the event loop of this process (where the test server runs) busy for `turnMs` in every
 * turn, as an overload does, until the returned function is called.
 */
function overload(turnMs: number): () => void {
  let running = true;
  const turn = (): void => {
    if (!running) return;
    const until = performance.now() + turnMs;
    while (performance.now() < until);
    setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    running = false;
  };
}

/**
 * The status of a verify once the server's event loop is calm: a start-up, a garbage collection or
 * another process on the cores can make one turn late, so a 503 is retried for up to 5 s, and
 * whatever comes last is returned (a bound stuck on refusing would return 503).
 */
async function statusWhenCalm(server: TestServer): Promise<number> {
  const until = performance.now() + 5_000;
  for (;;) {
    const { status } = await verifyAnything(server);
    if (status !== 503 || performance.now() > until) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The first verify `server` sheds while the event loop is overloaded: the lag is measured a turn
 * or two after the overload begins, however slow the machine; after 5 s whatever came is returned.
 */
async function shedWhileOverloaded(server: TestServer) {
  const until = performance.now() + 5_000;
  for (;;) {
    const answer = await verifyAnything(server);
    if (answer.status === 503 || performance.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('no new work while the event loop lags (ERX_MAX_LAG_MS)', () => {
  let lagging: TestServer;
  let unbounded: TestServer;
  before(async () => {
    lagging = await startTestServer({ env: { ERX_MAX_LAG_MS: '10' } });
    unbounded = await startTestServer();
  });
  after(async () => {
    await lagging.close();
    await unbounded.close();
  });

  it('sheds API requests while every turn takes 30 ms, serves probes, and recovers', async () => {
    assert.equal(await statusWhenCalm(lagging), 400);
    const stop = overload(30);
    try {
      // Once the lag is measured: the server sheds while the overload lasts.
      const shed = await shedWhileOverloaded(lagging);
      assert.equal(shed.status, 503);
      assert.equal(shed.headers.get('retry-after'), '1');
      assert.equal(shed.json.error_code, 'service_unavailable');
      assert.equal(typeof shed.json.cause?.Trace?.TraceID, 'string');
      assert.equal((await lagging.request('GET', '/healthz')).status, 200);
    } finally {
      stop();
    }
    assert.equal(await statusWhenCalm(lagging), 400);
  });

  it('is off by default: the same overload is served', async () => {
    const stop = overload(30);
    try {
      // The bounded server in the same process sheds: the lag is there, and measured.
      assert.equal((await shedWhileOverloaded(lagging)).status, 503);
      assert.equal((await verifyAnything(unbounded)).status, 400);
    } finally {
      stop();
    }
  });
});
