/**
 * `Idempotency-Key` over a real socket (SPEC.md §5): a retry with the same key and actor answers
 * the first answer and appends nothing, on every mutating call; the same key with another request
 * is a 409. Pharmacy systems retry on timeouts, and a retry must never dispense twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertError,
  calls,
  createPrescription,
  eventCount,
  expectationsOn,
  json,
} from '../support/e2e.js';
import type { Call } from '../support/e2e.js';
import { MED_A, MED_B, roomyPrescription, samplePrescription } from '../support/fixtures.js';
import type { RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';

describe('Idempotency-Key', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends, refuses } = expectationsOn(server);

  /** A dispense of prescription `id` carrying `key`; `items` undefined is a full dispensation. */
  function keyedDispense(
    id: string,
    key: string,
    items?: unknown,
    actor: Actor = server.pharmacist,
  ): Call {
    const body: RequestOptions =
      items === undefined ? { contentType: 'application/json' } : json(items);
    return call.post(`/ePrescription/dispense/${id}`, actor, {
      ...body,
      headers: { 'idempotency-key': key },
    });
  }

  describe('create', () => {
    function keyedCreate(doc: Record<string, unknown>, key: string): Call {
      return call.post('/ePrescription/create?output-format=data', server.doctor, {
        ...json(doc),
        headers: { 'idempotency-key': key },
      });
    }

    it('answers the same link for the same key and body, with one prescription', async () => {
      const doc = samplePrescription();
      const first = await keyedCreate(doc, `create-${doc.Id as string}`)();
      assert.equal(first.status, 200, first.text);
      const second = await keyedCreate(doc, `create-${doc.Id as string}`)();
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.json, first.json);
      assert.equal(await eventCount(server, doc.Id as string), 1);
    });

    it('refuses the same key with another body with 409 and stores nothing', async () => {
      const doc = samplePrescription();
      const key = `create-${doc.Id as string}`;
      assert.equal((await keyedCreate(doc, key)()).status, 200);
      const other = samplePrescription();
      assertError(await keyedCreate(other, key)(), 409, 'conflict', 'idempotency_key_reused');
      assert.equal(
        (await server.runtime.store.readChain(other.Id as string))?.state.prescription,
        undefined,
      );
    });
  });

  describe('dispense', () => {
    it('answers a repeated partial dispense with the first answer and appends one event', async () => {
      const rx = await createPrescription(server);
      const retried = keyedDispense(rx.id, `retry-${rx.id}`, [{ id: MED_A, amount: 1 }]);
      const first = await appends(rx.id, retried, 'partial_dispense');
      const second = await retried();
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.json, first);
      assert.equal(await eventCount(server, rx.id), 2);
    });

    it('answers a repeated full dispense with the first answer, not the seed §7 403', async () => {
      const rx = await createPrescription(server);
      const retried = keyedDispense(rx.id, `full-${rx.id}`);
      const first = await appends(rx.id, retried, 'full_dispense');
      const second = await retried();
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(second.json, first);
      assert.equal(await eventCount(server, rx.id), 2);
    });

    it('appends one event for ten concurrent calls with the same key', async () => {
      const rx = await createPrescription(server);
      const retried = keyedDispense(rx.id, `burst-${rx.id}`, [{ id: MED_B, amount: 1 }]);
      const answers = await Promise.all(Array.from({ length: 10 }, () => retried()));
      for (const answer of answers) assert.equal(answer.status, 200, answer.text);
      assert.equal(new Set(answers.map((a) => a.json.id as string)).size, 1);
      assert.equal(await eventCount(server, rx.id), 2);
    });

    it('answers fifty concurrent full dispenses with one key the first answer, not the seed 403', async () => {
      const rx = await createPrescription(server);
      const retried = keyedDispense(rx.id, `full-burst-${rx.id}`);
      const answers = await Promise.all(Array.from({ length: 50 }, () => retried()));
      for (const answer of answers) assert.equal(answer.status, 200, answer.text);
      assert.equal(new Set(answers.map((a) => a.json.id as string)).size, 1);
      assert.equal(answers[0]!.json.type, 'full_dispense');
      assert.equal(await eventCount(server, rx.id), 2);
    });

    it('answers a retry with the first answer even after the event was cancelled', async () => {
      // Roomy, so that a retry treated as a new call would be dispensed again, not refused.
      const rx = await createPrescription(server, roomyPrescription());
      const retried = keyedDispense(rx.id, `late-${rx.id}`, [{ id: MED_A, amount: 2 }]);
      const first = await appends(rx.id, retried, 'partial_dispense');
      assert.equal(first.cancellable, true);
      await appends(rx.id, call.cancel(rx.id, first.id as string, server.pharmacist), 'cancel');
      const again = await retried();
      assert.equal(again.status, 200, again.text);
      // The same event; its receipt is the newest checkpoint's, which the cancel has grown.
      const { receipt: firstReceipt, ...firstEvent } = first;
      const { receipt: againReceipt, ...againEvent } = again.json as typeof first;
      assert.deepEqual(againEvent, firstEvent);
      const index = (receipt: unknown): string | undefined =>
        /^index \d+$/m.exec(String(receipt))?.[0];
      assert.ok(index(firstReceipt) !== undefined);
      assert.equal(index(againReceipt), index(firstReceipt));
      assert.notEqual(againReceipt, firstReceipt);
      assert.equal(await eventCount(server, rx.id), 3);
    });

    it('refuses the same key with a different body with 409', async () => {
      // Roomy: each other body would be accepted under a key of its own.
      const rx = await createPrescription(server, roomyPrescription());
      const key = `mixed-${rx.id}`;
      await appends(
        rx.id,
        keyedDispense(rx.id, key, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      for (const other of [
        keyedDispense(rx.id, key, [{ id: MED_A, amount: 2 }]),
        keyedDispense(rx.id, key),
      ]) {
        await refuses(rx.id, other, 409, 'conflict', 'idempotency_key_reused');
      }
    });

    it('keeps keys per actor: another pharmacist with the same key dispenses anew', async () => {
      const rx = await createPrescription(server, roomyPrescription());
      const key = `shared-${rx.id}`;
      const items = [{ id: MED_A, amount: 1 }];
      await appends(rx.id, keyedDispense(rx.id, key, items), 'partial_dispense');
      const other = await appends(
        rx.id,
        keyedDispense(rx.id, key, items, server.pharmacist2),
        'partial_dispense',
      );
      assert.equal(other.actor, server.pharmacist2.sub);
    });

    it('refuses a malformed key with 400', async () => {
      const rx = await createPrescription(server);
      for (const key of ['x'.repeat(201), 'with space', 'umlaut-ä']) {
        await refuses(rx.id, keyedDispense(rx.id, key), 400, 'bad_request');
      }
    });
  });

  describe('lock, unlock, cancel and revoke', () => {
    it('answers ten concurrent locks with one key the first answer instead of 409', async () => {
      const rx = await createPrescription(server);
      const lock = call.post(`/ePrescription/lock/${rx.id}`, server.pharmacist, {
        headers: { 'idempotency-key': `lock-burst-${rx.id}` },
      });
      const answers = await Promise.all(Array.from({ length: 10 }, () => lock()));
      for (const answer of answers) assert.equal(answer.status, 200, answer.text);
      assert.equal(new Set(answers.map((a) => a.json.id as string)).size, 1);
      assert.equal(await eventCount(server, rx.id), 2);
    });

    it('answers a retried call with the first answer instead of its 409, appending once', async () => {
      const rx = await createPrescription(server);
      const keyed = (path: string, actor: Actor): Call =>
        call.post(path, actor, { headers: { 'idempotency-key': `${path}-${rx.id}` } });
      const dispensed = await appends(
        rx.id,
        call.dispenseFull(rx.id, server.pharmacist),
        'full_dispense',
      );
      const retried: [Call, string][] = [
        [keyed(`/ePrescription/lock/${rx.id}`, server.pharmacist), 'lock'],
        [keyed(`/ePrescription/unlock/${rx.id}`, server.pharmacist), 'unlock'],
        [
          keyed(`/ePrescription/cancel/${rx.id}/event/${dispensed.id}`, server.pharmacist),
          'cancel',
        ],
        [keyed(`/ePrescription/revoke/${rx.id}`, server.doctor), 'revoke'],
      ];
      for (const [retry, type] of retried) {
        const first = await appends(rx.id, retry, type);
        const count = await eventCount(server, rx.id);
        const again = await retry();
        assert.equal(again.status, 200, `${type}: ${again.text}`);
        assert.deepEqual(again.json, first, type);
        assert.equal(await eventCount(server, rx.id), count, type);
      }
    });
  });
});
