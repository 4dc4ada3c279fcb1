import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectionPool, requestText } from './http-connections.js';
import type { Outcome } from './http-connections.js';

interface Seen {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly port: number | undefined;
}

let server: Server;
let target: URL;
const seen: Seen[] = [];
/** Requests to /hang are never answered; they are ended when the test is over. */
const hanging: ServerResponse[] = [];

before(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const { method, url, headers } = request;
      seen.push({ method, url, headers, body, port: request.socket.remotePort });
      if (url === '/hang') return void hanging.push(response);
      if (url === '/close') response.setHeader('connection', 'close');
      response.statusCode = url === '/missing' ? 404 : 200;
      response.setHeader('content-type', 'application/json');
      // A chunked answer on some calls: the framing must not depend on content-length.
      if (url === '/chunked') response.write('{"part":');
      response.end(url === '/chunked' ? '1}' : JSON.stringify({ echo: body }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

after(async () => {
  for (const response of hanging) response.end();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Runs `body` with a pool of `size` connections to the test server, closed afterwards. */
async function withPool(
  size: number,
  body: (pool: ConnectionPool) => Promise<void>,
): Promise<void> {
  const pool = new ConnectionPool(target, size);
  try {
    await body(pool);
  } finally {
    pool.close();
  }
}

function call(pool: ConnectionPool, path: string, body = '', dueAt = performance.now()) {
  return new Promise<Outcome>((done) => {
    pool.send({
      request: requestText(target, 'POST', path, { 'x-test': 'yes' }, body),
      dueAt,
      done,
    });
  });
}

describe('requestText', () => {
  test('writes the request line, host, the headers and the body length in bytes', () => {
    const text = requestText(
      new URL('http://erx.test:8080'),
      'POST',
      '/a?b=1',
      { 'x-a': '1' },
      'é',
    );
    assert.equal(
      text,
      'POST /a?b=1 HTTP/1.1\r\nhost: erx.test:8080\r\nx-a: 1\r\ncontent-length: 2\r\n\r\né',
    );
  });
});

describe('ConnectionPool', () => {
  test('sends each call as written and answers its status, chunked answers included', () =>
    withPool(2, async (pool) => {
      seen.length = 0;
      const outcomes = await Promise.all([
        call(pool, '/one', 'grüezi'),
        call(pool, '/missing'),
        call(pool, '/chunked'),
        call(pool, '/four', '[1]'),
      ]);
      assert.deepEqual(outcomes, [200, 404, 200, 200]);
      const one = seen.find((s) => s.url === '/one')!;
      assert.equal(one.method, 'POST');
      assert.equal(one.body, 'grüezi');
      assert.equal(one.headers['x-test'], 'yes');
      assert.equal(one.headers['content-length'], String(Buffer.byteLength('grüezi')));
      assert.equal(pool.outstanding, 0);
    }));

  test('connections take turns, so none stays idle while others work', () =>
    withPool(4, async (pool) => {
      seen.length = 0;
      for (let i = 0; i < 12; i++) assert.equal(await call(pool, `/turn/${i}`), 200);
      const ports = seen.map((s) => s.port);
      assert.equal(new Set(ports).size, 4);
      // First in, first out: the same four connections in the same order, three times.
      assert.deepEqual(ports.slice(4), [...ports.slice(0, 4), ...ports.slice(0, 4)]);
    }));

  test('calls beyond the connections wait for one and are all answered', () =>
    withPool(2, async (pool) => {
      const pending = Array.from({ length: 20 }, (_, i) => call(pool, `/many/${i}`));
      assert.ok(pool.outstanding > 2);
      assert.deepEqual(await Promise.all(pending), Array<number>(20).fill(200));
      assert.equal(pool.outstanding, 0);
    }));

  test('a connection the server closes is replaced', () =>
    withPool(1, async (pool) => {
      seen.length = 0;
      assert.equal(await call(pool, '/close'), 200);
      assert.equal(await call(pool, '/after-close'), 200);
      assert.equal(await call(pool, '/again'), 200);
      const [closed, afterClose, again] = seen.map((s) => s.port);
      assert.notEqual(afterClose, closed);
      assert.equal(again, afterClose);
    }));

  test('expire fails overdue calls, sent or waiting, with timeout and replaces their connection', () =>
    withPool(1, async (pool) => {
      const due = performance.now();
      const sent = call(pool, '/hang', '', due);
      const waiting = call(pool, '/never-sent', '', due);
      const later = call(pool, '/later', '', due + 60_000);
      pool.expire(due);
      assert.equal(await sent, 'timeout');
      assert.equal(await waiting, 'timeout');
      // The call not yet due goes out on the replacement connection.
      assert.equal(await later, 200);
      assert.equal(pool.outstanding, 0);
    }));

  test('a refused connection fails its call with socket-error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const pool = new ConnectionPool(new URL(`http://127.0.0.1:${port}`), 1);
    try {
      const outcome = await new Promise<Outcome>((done) => {
        pool.send({ request: 'GET / HTTP/1.1\r\n\r\n', dueAt: performance.now(), done });
      });
      assert.equal(outcome, 'socket-error');
    } finally {
      pool.close();
    }
  });
});
