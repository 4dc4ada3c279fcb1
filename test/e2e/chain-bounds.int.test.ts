/**
 * A prescription's history is bounded (docs/decisions.md "A prescription's history is bounded"),
 * over a real socket on both engines: a lock/unlock loop by one pharmacy meets its bound per actor
 * and prescription in the window (429 `too_many_events` with `Retry-After`), the chain meets its
 * total (409 `chain_full`) whoever asks, a revoke still ends it, and a refused call changes
 * nothing. The bounds are lowered by configuration, as an operator would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calls, createPrescription, expectationsOn, verify } from '../support/e2e.js';
import type { JsonObject } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

/** The chain holds at most 8 events; one actor appends at most 4 to one prescription an hour. */
const MAX_EVENTS = 8;
const ACTOR_EVENTS = 4;

describe('bounded chains', () => {
  const server = useTestServer({
    env: {
      ERX_CHAIN_MAX_EVENTS: String(MAX_EVENTS),
      ERX_CHAIN_ACTOR_EVENTS: String(ACTOR_EVENTS),
      ERX_CHAIN_ACTOR_WINDOW: '1h',
    },
  });
  const { appends, refuses } = expectationsOn(server);
  const call = calls(server);

  /** The issuer's variant with transactions: the whole history as erx answers it. */
  function history(link: string): Promise<JsonObject> {
    return verify(server, link, server.doctor.token);
  }

  it('refuses a lock/unlock loop at the bound per actor and prescription, then the chain at its total', async () => {
    const rx = await createPrescription(server);
    const { pharmacist, pharmacist2, doctor } = server;
    for (let i = 0; i < ACTOR_EVENTS / 2; i++) {
      await appends(rx.id, call.lock(rx.id, pharmacist), 'lock');
      await appends(rx.id, call.unlock(rx.id, pharmacist), 'unlock');
    }
    const before = await history(rx.link);
    const tooMany = await refuses(
      rx.id,
      call.lock(rx.id, pharmacist),
      429,
      'too_many_requests',
      'too_many_events',
    );
    const retryAfter = Number(tooMany.headers.get('retry-after'));
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600,
      `Retry-After ${tooMany.headers.get('retry-after')}`,
    );
    assert.deepEqual(tooMany.json.params, { limit: ACTOR_EVENTS, window_s: 3600 });
    assert.deepEqual(await history(rx.link), before, 'the refused call changed the history');

    // Another pharmacy has its own count; the chain's total then refuses whoever the operation's
    // rules let through (the holder of the lock, the issuer).
    await appends(rx.id, call.lock(rx.id, pharmacist2), 'lock');
    await appends(rx.id, call.unlock(rx.id, pharmacist2), 'unlock');
    await appends(rx.id, call.lock(rx.id, pharmacist2), 'lock');
    const full = await history(rx.link);
    assert.equal((full.events as JsonObject[]).length, MAX_EVENTS);
    for (const [actor, refused] of [
      [pharmacist2, call.unlock(rx.id, pharmacist2)],
      [doctor, call.unlock(rx.id, doctor)],
    ] as const) {
      const answer = await refuses(rx.id, refused, 409, 'conflict', 'chain_full');
      assert.equal(answer.headers.get('retry-after'), null, actor.clientId);
      assert.deepEqual(answer.json.params, { limit: MAX_EVENTS });
    }
    assert.deepEqual(await history(rx.link), full, 'a refused call changed the history');

    // A revoke is bounded by neither: the issuer can still end the prescription.
    await appends(rx.id, call.revoke(rx.id, doctor), 'revoke');
    assert.equal((await verify(server, rx.link)).revoked, true);
  });
});
