/**
 * Load shedding (SPEC.md §9, OWASP API4): with `ERX_MAX_IN_FLIGHT` requests in progress, the next
 * one is answered at once with 503, `Retry-After` and the error shape; health and readiness still
 * answer; a request that finishes, or whose client goes away, frees its place. With
 * `ERX_MAX_LAG_MS`, while the event loop runs that far behind, the same; and not without it. The
 * file runs alone (`.solo.`): other suites on the same cores would make the calm turns late too.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, useTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const LIMIT = 4;

/** A verify whose headers have arrived but whose body has not: a request in progress. */
async function halfSent(url: string): Promise<{ socket: Socket; finish: () => Promise<string> }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const body = 'not a link';
  socket.write(
    `POST /ePrescription/verify HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 3)}`,
  );
  const finish = async (): Promise<string> => {
    socket.write(body.slice(3));
    await new Promise<void>((resolve) => socket.once('close', resolve));
    return received;
  };
  return { socket, finish };
}

/** Lets the server see what was written. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 200));
}

describe(`at most ${LIMIT} requests in progress (ERX_MAX_IN_FLIGHT)`, () => {
  const server = useTestServer({ env: { ERX_MAX_IN_FLIGHT: String(LIMIT) } });

  it('sheds the next request with 503 and Retry-After, serves probes, and frees places', async () => {
    const held = [];
    for (let i = 0; i < LIMIT; i++) held.push(await halfSent(server.url));
    await settle();

    const shed = await server.request('POST', '/ePrescription/verify', {
      body: 'anything',
      contentType: 'text/plain',
    });
    assert.equal(shed.status, 503);
    assert.equal(shed.headers.get('retry-after'), '1');
    assert.equal(shed.json.error_code, 'service_unavailable');
    assert.equal(typeof shed.json.trace?.TraceID, 'string');
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    assert.equal((await server.request('GET', '/readyz')).status, 200);

    // Half finish (their own answers are ordinary refusals), half of the clients go away.
    for (const [i, request] of held.entries()) {
      if (i % 2 === 0) assert.match(await request.finish(), /^HTTP\/1\.1 400 /);
      else request.socket.destroy();
    }
    await settle();

    const served = await Promise.all(
      Array.from({ length: LIMIT }, () =>
        server.request('POST', '/ePrescription/verify', {
          body: 'still not a link',
          contentType: 'text/plain',
        }),
      ),
    );
    assert.deepEqual(
      served.map((a) => a.status),
      Array.from({ length: LIMIT }, () => 400),
    );
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

function verifyAnything(server: TestServer) {
  return server.request('POST', '/ePrescription/verify', {
    body: 'not a link',
    contentType: 'text/plain',
  });
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
      await settle();
      const shed = await verifyAnything(lagging);
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
      await settle();
      assert.equal((await verifyAnything(unbounded)).status, 400);
    } finally {
      stop();
    }
  });
});
