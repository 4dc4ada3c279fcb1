/**
 * Slow request bodies (OWASP API4; SPEC.md §9): clients that send a verify's headers and then
 * trickle its body must not take the places of the requests in progress (`ERX_MAX_IN_FLIGHT`),
 * and one address must not hold more than `ERX_MAX_CONNECTIONS_PER_ADDRESS` connections, while
 * everyone else is served. Addresses in `ERX_TRUST_PROXY` (a proxy carries many clients) are
 * exempt from the connection bound. The attackers connect from other loopback addresses
 * (127.0.0.2 and up) than the client that must be served (127.0.0.1).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { createPrescription } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const IN_FLIGHT = 256;
const PER_ADDRESS = 64;
const TRUSTED = '127.0.0.9';
/** More slow bodies than places for requests in progress. */
const SLOW = 300;
const DRIP_MS = 500;
/** A guard against a hang: the server takes or refuses every connection within moments. */
const SETTLE_LIMIT_MS = 30_000;

/** A client connection from `from`, telling when the server answered or closed it. */
interface Client {
  socket: Socket;
  /** What the server sent so far. */
  received(): string;
  /** Whether the connection is closed. */
  closed(): boolean;
  /** Resolves once the server sent something or closed the connection. */
  settled: Promise<void>;
}

function client(url: string, from: string, head: string, drip?: string): Client {
  const socket = connect({
    port: Number(new URL(url).port),
    host: '127.0.0.1',
    localAddress: from,
  });
  let received = '';
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    socket.write(head);
    if (drip === undefined) return;
    socket.write(drip);
    timer = setInterval(() => {
      if (socket.writable) socket.write(drip);
    }, DRIP_MS);
  });
  const settled = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      resolve();
    });
    socket.once('close', () => {
      closed = true;
      clearInterval(timer);
      resolve();
    });
  });
  return { socket, received: () => received, closed: () => closed, settled };
}

/**
 * A verify that announces 1000 bytes of body and sends one now and then. `Expect: 100-continue`
 * makes the server say when it has taken the request (its `100 Continue`), so the test waits for
 * that instead of guessing a time.
 */
function slowVerify(url: string, from: string): Client {
  return client(
    url,
    from,
    'POST /ePrescription/verify HTTP/1.1\r\nHost: erx.test\r\nContent-Type: text/plain\r\n' +
      'Content-Length: 1000\r\nExpect: 100-continue\r\n\r\n',
    'x',
  );
}

/** A health check on a connection kept open afterwards (keep-alive). */
function health(url: string, from: string): Client {
  return client(url, from, 'GET /healthz HTTP/1.1\r\nHost: erx.test\r\n\r\n');
}

/** Waits until the server took or refused every client; fails after {@link SETTLE_LIMIT_MS}. */
async function allSettled(clients: readonly Client[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`connections not answered within ${SETTLE_LIMIT_MS} ms`)),
      SETTLE_LIMIT_MS,
    );
  });
  try {
    await Promise.race([Promise.all(clients.map((c) => c.settled)), late]);
  } finally {
    clearTimeout(timer);
  }
}

function stillOpen(clients: readonly Client[]): Client[] {
  return clients.filter((c) => !c.closed());
}

describe('slow request bodies and connections per address', () => {
  let erx: TestServer;
  let rx: Created;
  let open: Client[] = [];
  before(async () => {
    erx = await startTestServer({
      env: {
        ERX_MAX_IN_FLIGHT: String(IN_FLIGHT),
        ERX_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
        ERX_TRUST_PROXY: TRUSTED,
      },
    });
    rx = await createPrescription(erx);
  });
  afterEach(async () => {
    for (const c of open) c.socket.destroy();
    await Promise.all(open.map((c) => c.settled));
    open = [];
  });
  after(async () => {
    await erx.close();
  });

  /** A verify of the prescription from 127.0.0.1: its status and time. */
  async function verify(): Promise<{ status: number; ms: number }> {
    const started = performance.now();
    const answer = await erx.request('POST', '/ePrescription/verify', {
      body: rx.link,
      contentType: 'text/plain',
    });
    return { status: answer.status, ms: performance.now() - started };
  }

  it(`${SLOW} slow bodies from 5 addresses, each within its bound, hold no place in progress`, async () => {
    assert.equal((await verify()).status, 200);
    const perAddress = SLOW / 5;
    for (let a = 0; a < 5; a++) {
      for (let i = 0; i < perAddress; i++) open.push(slowVerify(erx.url, `127.0.0.${2 + a}`));
    }
    await allSettled(open);
    assert.equal(stillOpen(open).length, SLOW, 'every slow body is held open by the server');
    const { status, ms } = await verify();
    assert.equal(status, 200);
    assert.equal(stillOpen(open).length, SLOW, 'the attack still stands');
    console.log(
      `[security] slow bodies: ${SLOW} open from 5 addresses (ERX_MAX_IN_FLIGHT ${IN_FLIGHT}); ` +
        `a verify from another client answered ${status} in ${ms.toFixed(1)} ms`,
    );
  });

  it(`${SLOW} slow bodies from one address: it keeps ${PER_ADDRESS}, a verify from another answers 200 while they stand`, async () => {
    for (let i = 0; i < SLOW; i++) open.push(slowVerify(erx.url, '127.0.0.7'));
    await allSettled(open);
    const held = stillOpen(open);
    assert.equal(held.length, PER_ADDRESS, 'the connections past the bound are closed');
    for (const c of held) assert.match(c.received(), /^HTTP\/1\.1 100 Continue\r\n/);
    const counted = erx.runtime.metrics.registry.getSingleMetric('erx_connections_refused_total');
    assert.equal((await counted?.get())?.values[0]?.value, SLOW - PER_ADDRESS);
    const { status, ms } = await verify();
    assert.equal(status, 200);
    assert.equal(stillOpen(open).length, PER_ADDRESS, 'the attack still stands');
    console.log(
      `[security] slow bodies: ${SLOW} from one address, ${held.length} kept ` +
        `(ERX_MAX_CONNECTIONS_PER_ADDRESS ${PER_ADDRESS}); a verify from another client ` +
        `answered ${status} in ${ms.toFixed(1)} ms`,
    );
  });

  it(`one address holds at most ${PER_ADDRESS} connections; another connects; a closed one frees a place`, async () => {
    const from = '127.0.0.8';
    const clients = Array.from({ length: PER_ADDRESS + 6 }, () => health(erx.url, from));
    open.push(...clients);
    await allSettled(clients);
    const served = clients.filter((c) => c.received().startsWith('HTTP/1.1 200 '));
    const refused = clients.filter((c) => c.closed() && c.received() === '');
    assert.equal(served.length, PER_ADDRESS);
    assert.equal(refused.length, 6);
    assert.equal(stillOpen(served).length, PER_ADDRESS, 'the served connections are kept');
    assert.equal((await erx.request('GET', '/healthz')).status, 200, 'another address connects');

    const one = served[0]!;
    one.socket.destroy();
    await one.settled;
    // The server sees the close a moment after the client: wait until it takes a new one.
    const until = performance.now() + SETTLE_LIMIT_MS;
    for (;;) {
      const again = health(erx.url, from);
      open.push(again);
      await allSettled([again]);
      if (again.received().startsWith('HTTP/1.1 200 ')) break;
      assert.ok(performance.now() < until, 'a closed connection never freed its place');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it(`exempts the addresses of ERX_TRUST_PROXY (${TRUSTED})`, async () => {
    const clients = Array.from({ length: PER_ADDRESS + 6 }, () => health(erx.url, TRUSTED));
    open.push(...clients);
    await allSettled(clients);
    assert.equal(
      clients.filter((c) => c.received().startsWith('HTTP/1.1 200 ')).length,
      PER_ADDRESS + 6,
    );
  });
});
