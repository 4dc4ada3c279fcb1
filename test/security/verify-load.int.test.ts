/**
 * Anonymous verify under sustained load (OWASP API4): 1,000 verifies of one link over 32
 * connections at once, each sending its next request as soon as its last is answered, all with
 * 200, the same answer, no 5xx and no dropped connection. The anonymous limit is raised for this
 * test (it is per address, and all load comes from one); the limiter still runs on every request.
 * Counted, not timed: how fast erx answers is the bench's figure (`npm run bench`, "verify
 * anonymous": requests/s and p50/p90/p99 latency against the machine's own ceilings), where a
 * loaded machine moves the ceilings too. Set `ERX_TEST_LOAD_REQUESTS` for another count.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { MED_A } from '../support/fixtures.js';
import { calls, createPrescription, expectationsOn } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

const REQUESTS = Number(process.env.ERX_TEST_LOAD_REQUESTS ?? 1_000);
const CONNECTIONS = 32;

describe('anonymous verify under sustained load', () => {
  const server = useTestServer({ env: { ERX_RATE_LIMIT_ANON: String(REQUESTS * 10) } });
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

  it(`answers ${REQUESTS} verifies over ${CONNECTIONS} connections, every one 200 and alike`, async () => {
    const statuses: Record<number, number> = {};
    const bodies = new Set<string>();
    let next = 0;
    const connection = async (): Promise<void> => {
      while (next < REQUESTS) {
        next++;
        const answer = await server.request('POST', '/ePrescription/verify', {
          body: rx.link,
          contentType: 'text/plain',
        });
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        bodies.add(answer.text);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
    console.log(
      `[security] verify load: ${REQUESTS} requests, statuses ${JSON.stringify(statuses)}`,
    );
    assert.deepEqual(statuses, { 200: REQUESTS });
    assert.equal(bodies.size, 1, 'the answers differ');
    assert.equal(JSON.parse([...bodies][0]!).valid, true);
    // The server is still itself afterwards.
    assert.equal((await server.request('GET', '/healthz')).status, 200);
  });
});
