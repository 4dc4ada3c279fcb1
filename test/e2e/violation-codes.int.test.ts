/**
 * Every violation carries a code and its values (`code`, `params`) beside the English `message`,
 * and every refusal its `cause.Code`, so a client words them in its own language: a CHMED16A rule
 * (`zip_digits`, `gln_digits`), a schema rule of the document (`required`, `one_of`, `maximum`), a
 * route schema's (`minimum` of a dispense amount), one of erx's own rules (`unknown_medicament`),
 * and a refusal by state (`revoked`), with the values it names in `params` (a lock's holder).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import { assertError, calls, createPrescription, json, withItems } from '../support/e2e.js';
import type { JsonObject } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

/** The violation at `path` of an error answer. */
function at(body: JsonObject, path: string): JsonObject {
  const found = (body.violations as JsonObject[]).find((v) => v.path === path);
  assert.ok(found, `no violation at ${path} in ${JSON.stringify(body.violations)}`);
  return found;
}

describe('violation codes', () => {
  const server = useTestServer();
  const { dispense, revoke, full, lock } = calls(server);

  it('names the CHMED16A rule and schema rule each document violation breaks', async () => {
    const doc = samplePrescription({
      Auth: '123',
      Patient: { LName: 'Muster', BDt: '1968-05-21', Zip: '12' },
      Medicaments: [{ Id: MED_A, IdType: 4, Rep: 25 }],
    });
    const answer = await server.request(
      'POST',
      '/ePrescription/create?output-format=data',
      json(doc, { token: server.doctor.token }),
    );
    assertError(answer, 400, 'bad_request', 'invalid_document');
    const body = answer.json as JsonObject;
    for (const v of body.violations as JsonObject[]) {
      assert.equal(typeof v.code, 'string', JSON.stringify(v));
      assert.equal(typeof v.params, 'object', JSON.stringify(v));
    }
    assert.deepEqual(at(body, '/Patient/Zip'), {
      path: '/Patient/Zip',
      code: 'zip_digits',
      message: 'must be 4 or 5 digits',
      params: { min: 4, max: 5 },
    });
    assert.deepEqual(at(body, '/Auth').code, 'gln_digits');
    assert.deepEqual(at(body, '/Auth').params, { digits: 13 });
    assert.deepEqual(at(body, '/Patient/FName').code, 'required');
    assert.deepEqual(at(body, '/Medicaments/0/IdType').code, 'one_of');
    assert.deepEqual(at(body, '/Medicaments/0/IdType').params, { values: [1, 2, 3] });
    assert.deepEqual(at(body, '/Medicaments/0/Rep').code, 'maximum');
    assert.deepEqual(at(body, '/Medicaments/0/Rep').params, { limit: 24 });
  });

  it('names the rule of a route schema and of erx itself in a dispense body', async () => {
    const rx = await createPrescription(server);
    const low = await dispense(rx.id, withItems([{ id: MED_A, amount: 0 }]))();
    assertError(low, 400, 'bad_request');
    assert.deepEqual(
      (low.json.violations as JsonObject[]).map(({ path, code, params }) => ({
        path,
        code,
        params,
      })),
      [{ path: '/0/amount', code: 'minimum', params: { limit: 1 } }],
    );
    const unknown = await dispense(rx.id, withItems([{ id: '7680000000000', amount: 1 }]))();
    assertError(unknown, 400, 'bad_request', 'unknown_medicament');
    assert.equal(at(unknown.json, '/0/id').code, 'unknown_medicament');
  });

  it('gives a refusal by state its cause code', async () => {
    const rx = await createPrescription(server);
    assert.equal((await revoke(rx.id, server.doctor)()).status, 200);
    const answer = await full(rx.id)();
    assertError(answer, 403, 'forbidden', 'revoked');
    assert.equal(answer.json.message, 'The prescription has been revoked.');
  });

  it('names the values of a refusal in params: the lock holder and since when', async () => {
    const rx = await createPrescription(server);
    assert.equal((await lock(rx.id, server.pharmacist2)()).status, 200);
    const answer = await full(rx.id)();
    assertError(answer, 423, 'locked', 'locked');
    assert.equal(answer.json.params.holder, server.pharmacist2.name);
    assert.match(answer.json.params.since, /^\d{4}-\d{2}-\d{2}T/);
    assert.ok((answer.json.message as string).includes(server.pharmacist2.name));
    const again = await lock(rx.id, server.pharmacist)();
    assertError(again, 409, 'conflict', 'already_locked');
    assert.equal(again.json.params.holder, server.pharmacist2.name);
  });
});
