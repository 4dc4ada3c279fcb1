/**
 * Prometheus metrics are not on the API port (OWASP API4, API8): a scrape renders every metric,
 * so there anyone could spend erx's event loop on it and read how erx is doing. The API port
 * answers `/metrics` 404 in the error shape; the metrics listener (`ERX_METRICS_ADDR`) answers
 * it and nothing else; `off` means no listener; an address erx cannot take stops the start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startChildServer } from '../support/child-server.js';
import { assertError } from '../support/e2e.js';
import { send } from '../support/http.js';
import { listenServer, useTestServer } from '../support/server.js';

const PROMETHEUS_TEXT = /^text\/plain; version=0\.0\.4/;

/** A port something else listens on, and its server. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return { port: address.port, server };
}

/** Resolves once the socket at `url` refuses connections. */
async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

describe('metrics on their own listener', () => {
  const server = useTestServer();

  it('the API port answers /metrics 404 in the error shape and leaves it out of OpenAPI', async () => {
    for (const method of ['GET', 'HEAD', 'POST']) {
      const answer = await server.request(method, '/metrics');
      assert.equal(answer.status, 404, `${method} /metrics`);
      if (method !== 'HEAD') assertError(answer, 404, 'not_found');
    }
    const doc = (await server.request('GET', '/openapi.json')).json;
    assert.equal(doc.paths['/metrics'], undefined);
  });

  it('the metrics listener answers Prometheus text, and nothing else', async () => {
    assert.ok(server.metricsUrl, 'the test server has a metrics listener');
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    const answer = await send(server.metricsUrl, 'GET', '');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', PROMETHEUS_TEXT);
    assert.match(answer.text, /^erx_http_requests_total\{method="GET",route="\/healthz"/m);
    const base = server.metricsUrl.replace(/\/metrics$/, '');
    assert.notEqual(base, server.url);
    for (const path of ['/', '/healthz', '/openapi.json', '/metrics/x']) {
      assert.equal((await send(base, 'GET', path)).status, 404, path);
    }
    assert.equal((await send(server.metricsUrl, 'POST', '', { body: 'x' })).status, 405);
  });

  it('ERX_METRICS_ADDR=off starts no listener', async () => {
    const off = await listenServer({ env: { ERX_METRICS_ADDR: 'off' } });
    try {
      assert.equal(off.runtime.metricsListener, undefined);
      assert.equal(off.metricsUrl, undefined);
      assertError(await off.request('GET', '/metrics'), 404, 'not_found');
    } finally {
      await off.close();
    }
  });

  it('an address erx cannot listen on stops the start, naming ERX_METRICS_ADDR', async () => {
    const busy = await occupiedPort();
    try {
      await assert.rejects(
        listenServer({ env: { ERX_METRICS_ADDR: `127.0.0.1:${busy.port}` } }),
        /ERX_METRICS_ADDR 127\.0\.0\.1:\d+: cannot listen \(EADDRINUSE\)/,
      );
    } finally {
      await new Promise((resolve) => busy.server.close(resolve));
    }
  });
});

describe('erx serve starts and stops the metrics listener', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'erx-metrics-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints where the metrics are, serves them there, and closes them on stop', async () => {
    const child = await startChildServer({
      ERX_DATA_DIR: dataDir,
      ERX_PRESCRIPTION_URL: 'http://erx.test/rx/',
    });
    let metricsUrl: string | undefined;
    try {
      // The banner is written at once; wait for its metrics line all the same.
      const until = performance.now() + 5_000;
      while (metricsUrl === undefined && performance.now() < until) {
        metricsUrl = /metrics: (http:\/\/\S+)/.exec(child.output())?.[1];
        if (metricsUrl === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(metricsUrl, child.output());
      const scrape = await send(metricsUrl, 'GET', '');
      assert.equal(scrape.status, 200);
      assert.match(scrape.text, /^# TYPE erx_http_requests_total counter$/m);
      assertError(await send(child.url, 'GET', '/metrics'), 404, 'not_found');
    } finally {
      await child.stop();
    }
    assert.ok(await refused(metricsUrl));
  });
});
