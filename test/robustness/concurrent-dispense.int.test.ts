/**
 * 40 concurrent forced dispenses on one prescription are all recorded on one linear
 * chain (SPEC.md §7: the chain can never fork).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

test('40 concurrent forced dispenses: all 200, 41 events, one linear chain', async () => {
  const doc = samplePrescription();
  const created = await server.request('POST', '/ePrescription/create?output-format=data', {
    token: server.doctor.token,
    contentType: 'application/json',
    body: JSON.stringify(doc),
  });
  assert.equal(created.status, 200);
  const id = created.json.prescription_id as string;

  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      server.request('POST', `/ePrescription/dispense/${id}?force=true`, {
        token: i % 2 === 0 ? server.pharmacist.token : server.pharmacist2.token,
        contentType: 'application/json',
        body: i % 3 === 0 ? undefined : JSON.stringify([{ id: MED_A, amount: 1 }]),
      }),
    ),
  );
  assert.deepEqual(
    answers.map((a) => a.status),
    answers.map(() => 200),
  );

  const events = (await server.runtime.store.readChain(id))?.state.events ?? [];
  assert.equal(events.length, 41);
  events.forEach((e, i) => {
    assert.equal(e.seq, i);
    assert.equal(e.parentHash, i === 0 ? null : events[i - 1]!.hash);
  });
  assert.equal(new Set(events.map((e) => e.parentHash)).size, 41);

  const verified = await server.request('POST', '/ePrescription/verify', {
    token: server.pharmacist.token,
    contentType: 'application/json',
    body: created.json.SignedPrescriptionData,
  });
  assert.equal(verified.status, 200);
  assert.equal(verified.json.events.length, 41);
  assert.equal(verified.json.tampering_detection_result.logs_check_passed, true);
  assert.equal(verified.json.valid, true);
});
