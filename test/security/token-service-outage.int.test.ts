/**
 * The token service slow (> 2 s) or down (SPEC.md §5): every protected route
 * answers 503 `service_unavailable` in the seed §7 shape, at the checker's 2 s limit (no earlier,
 * and while the token service still holds every answer), and records nothing, not even when the
 * late answer says "active". Anonymous verify needs no token check and keeps working.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertError, json } from '../support/e2e.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { SERVICE_CLIENT, startFakeTokenService } from './support/fake-token-service.js';
import type { FakeTokenService } from './support/fake-token-service.js';
import { listenServer } from '../support/server.js';
import type { ListeningServer } from '../support/server.js';

const ITEMS = [{ id: MED_A, amount: 1 }];
/** The checker's limit (SPEC.md §5 "HTTP external with 2 s timeout"). */
const CHECK_LIMIT_MS = 2_000;

describe('token service slow or down: fail closed', () => {
  let auth: FakeTokenService;
  let erx: ListeningServer;
  let rxId: string;
  let link: string;
  let lockTarget: string;
  let eventId: string;
  const refusedCreates: string[] = [];

  const fresh = (role: 'doc' | 'ph'): string => `${role}-${randomUUID()}`;

  before(async () => {
    auth = await startFakeTokenService();
    erx = await listenServer({
      env: {
        ERX_AUTH_URL: auth.url,
        ERX_AUTH_CLIENT_ID: SERVICE_CLIENT.id,
        ERX_AUTH_CLIENT_SECRET: SERVICE_CLIENT.secret,
      },
    });
    const doctor = fresh('doc');
    const pharmacist = fresh('ph');
    const create = async (): Promise<{ id: string; link: string }> => {
      const answer = await erx.request(
        'POST',
        '/ePrescription/create?output-format=data',
        json(samplePrescription(), { token: doctor }),
      );
      assert.equal(answer.status, 200, answer.text);
      return { id: answer.json.prescription_id, link: answer.json.SignedPrescriptionData };
    };
    ({ id: rxId, link } = await create());
    lockTarget = (await create()).id;
    const dispensed = await erx.request(
      'POST',
      `/ePrescription/dispense/${rxId}`,
      json(ITEMS, { token: pharmacist }),
    );
    assert.equal(dispensed.status, 200, dispensed.text);
    eventId = dispensed.json.id;
    const locked = await erx.request('POST', `/ePrescription/lock/${rxId}`, { token: pharmacist });
    assert.equal(locked.status, 200, locked.text);
  });
  after(async () => {
    await erx.close();
    await auth.close();
  });

  /** Each protected call with a token never checked before (a cached one needs no check). */
  function protectedCalls(): [string, () => Promise<Answer>][] {
    const post =
      (path: string, token: string, o: RequestOptions = {}) =>
      () =>
        erx.request('POST', path, { ...o, token });
    const doc = samplePrescription();
    refusedCreates.push(doc.Id as string);
    return [
      ['create', post('/ePrescription/create?output-format=data', fresh('doc'), json(doc))],
      ['dispense', post(`/ePrescription/dispense/${rxId}`, fresh('ph'), json(ITEMS))],
      ['revoke', post(`/ePrescription/revoke/${rxId}`, fresh('doc'))],
      ['cancel', post(`/ePrescription/cancel/${rxId}/event/${eventId}`, fresh('ph'))],
      ['lock', post(`/ePrescription/lock/${lockTarget}`, fresh('ph'))],
      ['unlock', post(`/ePrescription/unlock/${rxId}`, fresh('ph'))],
      [
        'verify with a token',
        post('/ePrescription/verify', fresh('ph'), { body: link, contentType: 'text/plain' }),
      ],
    ];
  }

  async function recorded(): Promise<number> {
    const store = erx.runtime.store;
    let total =
      ((await store.readChain(rxId))?.state.events ?? []).length +
      ((await store.readChain(lockTarget))?.state.events ?? []).length;
    for (const id of refusedCreates)
      if ((await store.readChain(id))?.state.prescription) total += 1000;
    return total;
  }

  /** Fires every protected call at once; answers each one's status, error and time. */
  async function fireAll(): Promise<{ name: string; answer: Answer; ms: number }[]> {
    return Promise.all(
      protectedCalls().map(async ([name, call]) => {
        const started = performance.now();
        const answer = await call();
        return { name, answer, ms: performance.now() - started };
      }),
    );
  }

  async function anonymousVerifyWorks(): Promise<void> {
    const answer = await erx.request('POST', '/ePrescription/verify', {
      body: link,
      contentType: 'text/plain',
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.valid, true);
  }

  it('slow (holding its answers): 503 at the 2 s limit, and the late "active" records nothing', async () => {
    auth.holding = true;
    const before = await recorded();
    const checksBefore = auth.checks;
    let results: Awaited<ReturnType<typeof fireAll>>;
    try {
      // Answered while the token service still holds every answer: erx did not wait for it.
      results = await fireAll();
      for (const { name, answer, ms } of results) {
        assertError(answer, 503, 'service_unavailable');
        assert.ok(ms >= CHECK_LIMIT_MS - 100, `${name} answered after ${ms} ms, before the limit`);
      }
      await anonymousVerifyWorks();
      assert.ok(auth.checks >= checksBefore + results.length, 'every call asked the token service');
    } finally {
      // The late "active" answers go out now; they must change nothing.
      auth.holding = false;
    }
    assert.equal(await recorded(), before);
    const times = results.map((r) => Math.round(r.ms));
    console.log(
      `[security] token service slow: ${results.length} calls, ${results.length} × 503, ` +
        `${Math.min(...times)}–${Math.max(...times)} ms, 0 recorded`,
    );
  });

  it('down (closed port): 503, nothing recorded', async () => {
    auth.delayMs = 0;
    await auth.close();
    const before = await recorded();
    const results = await fireAll();
    for (const { answer } of results) {
      assertError(answer, 503, 'service_unavailable');
    }
    await anonymousVerifyWorks();
    assert.equal(await recorded(), before);
    const times = results.map((r) => Math.round(r.ms));
    console.log(
      `[security] token service down: ${results.length} calls, ${results.length} × 503, ` +
        `${Math.min(...times)}–${Math.max(...times)} ms, 0 recorded`,
    );
  });
});
