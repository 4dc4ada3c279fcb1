/**
 * Anonymous verify under load (OWASP API4): 200 requests per second for 60 s,
 * sent open-loop, keep p95 under 50 ms with no 5xx. The anonymous limit is raised for this test
 * (it is per address, and all load comes from one); the limiter still runs on every request.
 * Set `ERX_TEST_LOAD_SECONDS` for a shorter local run; the suite's figure is 60.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { MED_A } from '../support/fixtures.js';
import { calls, createPrescription, expectationsOn } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { openLoop, percentile } from './support/open-loop.js';

const RATE = 200;
const SECONDS = Number(process.env.ERX_TEST_LOAD_SECONDS ?? 60);
const P95_LIMIT_MS = 50;

describe('anonymous verify at 200 requests/s', () => {
  const server = useTestServer({ env: { ERX_RATE_LIMIT_ANON: String(RATE * 10) } });
  const { appends } = expectationsOn(server);
  let rx: Created;
  before(async () => {
    rx = await createPrescription(server);
    const call = calls(server);
    // A chain with a few signed events, as a prescription at the counter has.
    await appends(
      rx.id,
      call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
      'partial_dispense',
    );
    await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
  });

  it(`keeps p95 < ${P95_LIMIT_MS} ms and 0 5xx for ${SECONDS} s`, async () => {
    const result = await openLoop({
      url: server.url,
      method: 'POST',
      path: '/ePrescription/verify',
      headers: { 'content-type': 'text/plain' },
      body: rx.link,
      ratePerSecond: RATE,
      durationMs: SECONDS * 1000,
    });
    const l = result.latencies;
    const fiveXx = Object.entries(result.statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    const p95 = percentile(l, 95);
    console.log(
      `[security] verify load: ${result.sent} requests in ${(result.elapsedMs / 1000).toFixed(1)} s ` +
        `(${((result.sent * 1000) / result.elapsedMs).toFixed(1)}/s), statuses ${JSON.stringify(result.statuses)}, ` +
        `${result.errors} socket errors, 5xx ${fiveXx}; latency ms p50 ${percentile(l, 50).toFixed(2)} ` +
        `p95 ${p95.toFixed(2)} p99 ${percentile(l, 99).toFixed(2)} max ${l[l.length - 1]!.toFixed(2)}`,
    );
    assert.equal(result.sent, RATE * SECONDS);
    assert.equal(result.errors, 0);
    assert.equal(fiveXx, 0);
    assert.deepEqual(result.statuses, { 200: result.sent });
    assert.ok(p95 < P95_LIMIT_MS, `p95 ${p95} ms`);
    // The server is still itself afterwards.
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });
});
