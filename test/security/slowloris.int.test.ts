/**
 * Slowloris (OWASP API4; SPEC.md §9): a client that trickles its headers, or its
 * body, a byte at a time must lose its connection once `headersTimeout` / `requestTimeout` run
 * out, while everyone else is still served. The limits are shortened to about a second here; the
 * defaults (10 s / 30 s) are checked as configured. A trickling client never goes quiet, so its
 * connection ending at all is the timeout's doing; it ends no earlier than the limit (timers never
 * fire early), and how much later depends on the machine, so that is printed, not bounded.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { listenServer } from '../support/server.js';
import type { ListeningServer } from '../support/server.js';

const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
const TRICKLE_MS = 100;
/** A guard against a hang only: the connections end within a few seconds. */
const HANG_MS = 60_000;

interface Trickle {
  socket: Socket;
  /** Resolves once connected and the head is sent (or the connection closed first). */
  sent: Promise<void>;
  /** Resolves with the time from connect to close, and what the server sent. */
  closed: Promise<{ ms: number; received: string }>;
}

/** Connects and sends `head` at once, then `drip` one byte every {@link TRICKLE_MS}. */
function trickle(url: string, head: string, drip: string): Trickle {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  const started = performance.now();
  let received = '';
  let sent = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  // Also settled by a close before the connect: a refused client holds nothing.
  const written = new Promise<void>((resolve) => {
    socket.once('connect', () => socket.write(head, () => resolve()));
    socket.once('close', () => resolve());
  });
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return;
    socket.write(drip[sent % drip.length]!);
    sent += 1;
  }, TRICKLE_MS);
  const closed = new Promise<{ ms: number; received: string }>((resolve) => {
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ ms: performance.now() - started, received });
    });
  });
  return { socket, sent: written, closed };
}

describe('slowloris: trickling clients are dropped', () => {
  let erx: ListeningServer;
  const open: Socket[] = [];
  before(async () => {
    erx = await listenServer({
      runtime: { timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS } },
    });
  });
  after(async () => {
    for (const socket of open) socket.destroy();
    await erx.close();
  });

  it(
    'drops a client that sends its headers byte by byte after headersTimeout',
    { timeout: HANG_MS },
    async () => {
      const t = trickle(
        erx.url,
        'POST /ePrescription/verify HTTP/1.1\r\nHost: erx.test\r\nX-Padding: ',
        'abcdefghijklmnopqrstuvwxyz',
      );
      open.push(t.socket);
      const { ms, received } = await t.closed;
      assert.ok(ms >= HEADERS_MS - 50, `closed after ${ms} ms, before the limit`);
      console.log(
        `[security] slowloris (headers): closed after ${Math.round(ms)} ms ` +
          `(headersTimeout ${HEADERS_MS} ms); ` +
          `server sent ${JSON.stringify(received.split('\r\n')[0] ?? '')}`,
      );
    },
  );

  it(
    'drops a client that sends its body byte by byte after requestTimeout',
    { timeout: HANG_MS },
    async () => {
      const t = trickle(
        erx.url,
        'POST /ePrescription/verify HTTP/1.1\r\nHost: erx.test\r\n' +
          'Content-Type: text/plain\r\nContent-Length: 10000\r\n\r\n',
        'x',
      );
      open.push(t.socket);
      const { ms, received } = await t.closed;
      assert.ok(ms >= REQUEST_MS - 50, `closed after ${ms} ms, before the limit`);
      console.log(
        `[security] slowloris (body): closed after ${Math.round(ms)} ms ` +
          `(requestTimeout ${REQUEST_MS} ms); ` +
          `server sent ${JSON.stringify(received.split('\r\n')[0] ?? '')}`,
      );
    },
  );

  it(
    'serves others while 100 trickling clients hold connections, then drops them all',
    { timeout: HANG_MS },
    async () => {
      const clients = Array.from({ length: 100 }, (_, i) =>
        trickle(erx.url, `GET /healthz HTTP/1.1\r\nHost: erx.test\r\nX-Slow-${i}: `, 'z'),
      );
      open.push(...clients.map((c) => c.socket));
      // Every trickling client is connected and has begun its headers (on a busy machine the
      // first may already be dropped: each one's headers timeout runs from its own connect).
      await Promise.all(clients.map((c) => c.sent));
      const started = performance.now();
      const health = await erx.request('GET', '/healthz');
      const healthMs = performance.now() - started;
      assert.equal(health.status, 200);
      const results = await Promise.all(clients.map((c) => c.closed));
      for (const { ms } of results) assert.ok(ms >= HEADERS_MS - 50, `one closed after ${ms} ms`);
      const worst = Math.max(...results.map((r) => r.ms));
      console.log(
        `[security] slowloris (100 clients): healthz answered in ${healthMs.toFixed(1)} ms, ` +
          `all 100 closed, the last after ${Math.round(worst)} ms`,
      );
    },
  );

  it('defaults to headersTimeout 10 s and requestTimeout 30 s', async () => {
    const defaults = await listenServer();
    try {
      assert.equal(defaults.runtime.app.server.headersTimeout, 10_000);
      assert.equal(defaults.runtime.app.server.requestTimeout, 30_000);
    } finally {
      await defaults.close();
    }
    assert.equal(erx.runtime.app.server.headersTimeout, HEADERS_MS);
    assert.equal(erx.runtime.app.server.requestTimeout, REQUEST_MS);
  });
});
