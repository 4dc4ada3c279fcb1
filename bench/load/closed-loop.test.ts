/**
 * A closed loop bounded by its pool (the cold verify figure): no item is sent twice, the warm-up
 * sends at most a tenth, and the measured run ends when the pool is used up, its rate taken to its
 * last answer instead of the run's full length. The warm-up's answers other than 2xx are reported.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { closedLoop } from './closed-loop.js';
import { requireBodies, requireServed } from './served.js';

test('a bounded closed loop sends each item of its pool once and ends when they are used', async () => {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      bodies.push(body);
      response.setHeader('content-type', 'application/json');
      // One item of the warm-up's tenth is refused: the warm-up's answers are counted too.
      response.statusCode = body === 'link-5' ? 403 : 200;
      response.end('{"valid":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const links = Array.from({ length: 400 }, (_, i) => `link-${i}`);
    const result = await closedLoop({
      url: `http://127.0.0.1:${port}`,
      plan: { kind: 'verify', path: '/verify', links },
      connections: 4,
      warmupSeconds: 1,
      seconds: 5,
      offset: 1,
      limit: links.length - 1,
    });
    // Every item from the offset on, once each, and nothing before it or after the pool's end.
    assert.deepEqual([...bodies].sort(), links.slice(1).sort());
    assert.equal(result.issued, 399);
    // The warm-up sent a tenth of the pool (39), the measurement the other 360, all answered.
    assert.equal(result.ok, 360);
    assert.equal(result.errors, 0);
    assert.equal(result.non2xx, 0);
    assert.equal(result.warmupNon2xx, 1);
    assert.deepEqual(result.warmupStatusCounts, { '200': 38, '403': 1 });
    assert.throws(() => requireServed('verify', result), /verify: .*1 × 403/);
    assert.ok(result.seconds < 2, `the measured run ended early (${result.seconds} s)`);
    assert.ok(Math.abs(result.rps - 360 / result.seconds) < 1e-6);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('answers against the expected body are counted, warm-up included', async () => {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      // Two answers without a receipt: one in the warm-up's tenth, one in the measured run.
      const without = body === 'link-3' || body === 'link-300';
      response.end(without ? '{"type":"partial_dispense"}' : '{"type":"x","receipt":"r"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const links = Array.from({ length: 400 }, (_, i) => `link-${i}`);
    const job = {
      url: `http://127.0.0.1:${port}`,
      plan: { kind: 'verify', path: '/dispense', links },
      connections: 4,
      warmupSeconds: 1,
      seconds: 5,
      offset: 0,
      limit: links.length,
    } as const;
    const present = await closedLoop({
      ...job,
      expectInBody: { text: '"receipt":"', present: true },
    });
    assert.equal(present.ok, 360);
    assert.equal(present.bodyMismatches, 2);
    assert.throws(
      () => requireBodies('dispense', present, 'a receipt'),
      /2 answers not as expected/,
    );
    const absent = await closedLoop({
      ...job,
      expectInBody: { text: '"receipt":"', present: false },
    });
    assert.equal(absent.bodyMismatches, 398);
    assert.equal((await closedLoop(job)).bodyMismatches, 0);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
