/**
 * The anonymous verify variant reveals no actor or dispensing detail (seed §2.3:
 * "The variant without transactions carries only prescription_id, issued_at, issued_by, valid,
 * revoked, dispensed"). Whoever holds the QR code learns the state, never who dispensed what,
 * when, or who holds the lock. `issued_by` names the issuer by the seed's own rule (the link's
 * `i=` carries the same label), so the issuer is the one actor allowed in the answer. A prescriber
 * who did not issue the prescription gets the same short answer (SPEC.md §10 "Who sees what"), and
 * so does, for a link whose signature fails, a pharmacy that never dispensed or cancelled on it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { calls, createPrescription, expectationsOn, json, verify } from '../support/e2e.js';
import { withChangedSignature } from '../support/forged-links.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { SUBSTITUTE, roomyPrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const SHORT_KEYS = ['dispensed', 'issued_at', 'issued_by', 'prescription_id', 'revoked', 'valid'];
const LOCK_REASON = 'Frau Muster wartet am Schalter 2';

describe('anonymous verify discloses no actor or dispensing detail', () => {
  const server = useTestServer();
  const { appends } = expectationsOn(server);
  let rx: Created;
  let medicamentIds: string[];
  before(async () => {
    const doc = roomyPrescription();
    medicamentIds = (doc.Medicaments as { Id: string }[]).map((m) => m.Id);
    rx = await createPrescription(server, doc);
    const call = calls(server);
    const [first, second] = medicamentIds as [string, string];
    const items = [
      { id: first, amount: 1 },
      { id: second, amount: 1, substitute: SUBSTITUTE, substitute_id_type: 2 },
    ];
    await appends(rx.id, call.dispenseItems(rx.id, server.pharmacist, items), 'partial_dispense');
    const partial = await appends(
      rx.id,
      call.dispenseItems(rx.id, server.pharmacist2, [{ id: first, amount: 1 }]),
      'partial_dispense',
    );
    await appends(rx.id, call.cancel(rx.id, partial.id, server.pharmacist2), 'cancel');
    await appends(rx.id, call.dispenseFull(rx.id, server.pharmacist), 'full_dispense');
    await appends(
      rx.id,
      call.lock(rx.id, server.pharmacist2, `?reason=${encodeURIComponent(LOCK_REASON)}`),
      'lock',
    );
  });

  /** Every detail of the variant with transactions that the anonymous one must not carry. */
  function secretsOf(full: JsonObject): Map<string, string> {
    const found = new Map<string, string>();
    const add = (what: string, value: unknown): void => {
      if (typeof value === 'string' && value !== '') found.set(value, what);
    };
    for (const event of full.events as JsonObject[]) {
      add(`event id (${event.type})`, event.id);
      add(`event timestamp (${event.type})`, event.timestamp);
      add('event hash', event.hash);
      add('event signature', event.signature);
      add('prescription hash', event.prescription_hash);
      // The issuer is named by issued_by (seed §2.3); every other actor is a secret.
      if (event.type !== 'create') {
        add(`actor (${event.type})`, event.actor);
        add(`actor name (${event.type})`, event.actor_name);
      }
    }
    for (const p of full.partial_dispensations as JsonObject[]) {
      add('dispensation timestamp', p.timestamp);
      add('dispensed by', p.dispensed_by);
      add('dispensed medicament', p.medicine_id);
      add('substitute', p.substitute);
    }
    add('locked_at', full.locked_at);
    // The details SPEC.md §10 adds to the variant with transactions.
    add('dispensed_at', full.dispensed_at);
    add('dispensed_by', full.dispensed_by);
    add('locked_by', full.locked_by);
    add('expires_at', full.expires_at);
    for (const id of medicamentIds) add('medicament id', id);
    add('lock reason', LOCK_REASON);
    add('substitute', SUBSTITUTE);
    for (const actor of [server.pharmacist, server.pharmacist2]) {
      add('pharmacy client id', actor.clientId);
      add('pharmacy sub', actor.sub);
      add('pharmacy name', actor.name);
    }
    return found;
  }

  it('answers exactly the six short fields and none of the details', async () => {
    const full = await verify(server, rx.link, server.doctor.token);
    assert.equal(full.locked, true);
    assert.equal(full.dispensed_by, server.pharmacist.sub);
    assert.equal(full.locked_by, server.pharmacist2.name);
    assert.equal((full.events as JsonObject[]).length, 6);
    const secrets = secretsOf(full);

    const answer = await server.request('POST', '/ePrescription/verify', {
      body: rx.link,
      contentType: 'text/plain',
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.json).sort(), SHORT_KEYS);
    assert.equal(answer.json.prescription_id, rx.id);
    assert.equal(answer.json.issued_by, full.issued_by);
    assert.equal(answer.json.dispensed, true);
    assert.equal(answer.json.valid, true);
    assert.equal(answer.json.revoked, false);
    for (const key of ['valid', 'revoked', 'dispensed']) {
      assert.equal(typeof answer.json[key], 'boolean');
    }
    const leaked = [...secrets].filter(([value]) => answer.text.includes(value));
    assert.deepEqual(
      leaked.map(([, what]) => what),
      [],
      `anonymous answer: ${answer.text}`,
    );
    // Nothing in the headers either (e.g. a lock holder or an actor echoed back).
    const headerText = [...answer.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
    assert.deepEqual(
      [...secrets].filter(([value]) => headerText.includes(value)).map(([, what]) => what),
      [],
    );
    console.log(
      `[security] anonymous verify: ${SHORT_KEYS.length} keys, ${secrets.size} details checked, ` +
        `${leaked.length} disclosed`,
    );
  });

  it('answers the same short variant as JSON string body and with a trailing newline', async () => {
    for (const body of [JSON.stringify(rx.link), `${rx.link}\n`]) {
      const answer = await server.request('POST', '/ePrescription/verify', {
        ...json(null),
        body,
      });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(Object.keys(answer.json).sort(), SHORT_KEYS);
    }
  });

  it('answers a prescriber who did not issue it the same short variant (SPEC.md §10)', async () => {
    const anonymous = await verify(server, rx.link);
    const answer = await server.request('POST', '/ePrescription/verify', {
      body: rx.link,
      contentType: 'text/plain',
      token: server.doctor2.token,
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.json).sort(), SHORT_KEYS);
    assert.deepEqual(answer.json, anonymous);
  });

  it('answers a pharmacy that only locked it, for a forged link, as it answers no token', async () => {
    const forged = await createPrescription(server, roomyPrescription());
    const call = calls(server);
    await appends(forged.id, call.dispenseFull(forged.id, server.pharmacist), 'full_dispense');
    await appends(
      forged.id,
      call.lock(forged.id, server.pharmacist2, `?reason=${encodeURIComponent(LOCK_REASON)}`),
      'lock',
    );
    const link = withChangedSignature(forged.link);
    const full = await verify(server, link, server.pharmacist.token);
    assert.equal(full.locked_by, server.pharmacist2.name);
    const secrets = secretsOf(full);
    const anonymous = await verify(server, link);
    const answer = await server.request('POST', '/ePrescription/verify', {
      body: link,
      contentType: 'text/plain',
      token: server.pharmacist2.token,
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.json).sort(), SHORT_KEYS);
    assert.deepEqual(answer.json, anonymous);
    assert.deepEqual(
      [answer.json.valid, answer.json.revoked, answer.json.dispensed],
      [false, false, false],
    );
    const leaked = [...secrets].filter(([value]) => answer.text.includes(value));
    assert.deepEqual(
      leaked.map(([, what]) => what),
      [],
    );
  });
});
