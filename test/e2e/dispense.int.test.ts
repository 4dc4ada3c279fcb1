/**
 * `POST /ePrescription/dispense/{id}` over a real socket (seed §3, §4.1 rules 1–6, §7; SPEC.md §5,
 * §10): full, partial, substitute and forced dispensations, completion once partials reach the
 * prescribed quantities, the exact 403 of seed §7, every 400 of an item, and roles. Every refusal
 * leaves the event count unchanged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MED_A, MED_B, SUBSTITUTE, roomyPrescription } from '../support/fixtures.js';
import {
  assertTrace,
  calls,
  createPrescription,
  expectationsOn,
  verify,
  withItems,
} from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

const EVENT_KEYS = [
  'actor',
  'actor_name',
  'cancellable',
  'event_data',
  'hash',
  'id',
  'parent_hash',
  'receipt',
  'reference',
  'signature',
  'timestamp',
  'type',
];

describe('dispense', () => {
  const server = useTestServer();
  const { appends, refuses } = expectationsOn(server);
  const { dispense, full } = calls(server);

  async function fullyDispensed(): Promise<Created> {
    const rx = await createPrescription(server);
    await appends(rx.id, full(rx.id), 'full_dispense');
    return rx;
  }

  describe('full dispensation (seed §4.1 rule 1)', () => {
    it('takes Content-Type: application/json without a body as a full dispensation', async () => {
      const rx = await createPrescription(server);
      const event = await appends(rx.id, full(rx.id), 'full_dispense');
      assert.deepEqual(Object.keys(event).sort(), EVENT_KEYS);
      assert.equal(event.actor, server.pharmacist.sub);
      assert.equal(event.actor_name, server.pharmacist.name);
      assert.equal(event.cancellable, true);
      assert.deepEqual(event.event_data, {});
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, true);
      assert.deepEqual(result.partial_dispensations, []);
      assert.equal((await verify(server, rx.link)).dispensed, true);
    });

    it('takes a call without any body and without Content-Type as a full dispensation', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, dispense(rx.id), 'full_dispense');
      assert.equal((await verify(server, rx.link)).dispensed, true);
    });

    it('takes force=false like no force', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, full(rx.id, '?force=false'), 'full_dispense');
    });
  });

  describe('fully dispensed (seed §3, §4.1 rules 5–6, §7)', () => {
    it('refuses a second dispense without force with exactly the seed §7 403', async () => {
      const rx = await fullyDispensed();
      const answer = await refuses(rx.id, full(rx.id), 403, 'forbidden', 'unknown_error');
      const body = answer.json as JsonObject;
      assert.deepEqual(Object.keys(body).sort(), ['cause', 'error_code', 'message', 'trace']);
      assert.deepEqual(Object.keys(body.cause).sort(), ['Code', 'Message', 'StatusCode', 'Trace']);
      assert.equal(body.error_code, 'forbidden');
      assert.equal(body.cause.StatusCode, 403);
      assert.match(body.cause.Message, /already.*fully dispensed/i);
      assert.match(body.message, /already.*fully dispensed/i);
      assert.equal(body.cause.Code, 'unknown_error');
      assertTrace(body.trace);
      assertTrace(body.cause.Trace);
    });

    it('records one of two concurrent full dispensations and refuses the other with the 403', async () => {
      const rx = await createPrescription(server);
      // Two pharmacies at once: the appends of one prescription are decided one after the other,
      // each on the chain the one before it left.
      const answers = await Promise.all([
        full(rx.id)(),
        dispense(rx.id, { actor: server.pharmacist2, contentType: 'application/json' })(),
      ]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 403]);
      const refused = answers.find((a) => a.status === 403)!.json as JsonObject;
      assert.match(refused.message, /already.*fully dispensed/i);
      const events = (await server.runtime.store.readChain(rx.id))?.state.events ?? [];
      assert.deepEqual(
        events.map((e) => (JSON.parse(e.body) as { type: string }).type),
        ['create', 'full_dispense'],
      );
    });

    it('refuses items, and force=false, on a fully dispensed prescription with the same 403', async () => {
      const rx = await fullyDispensed();
      for (const call of [
        dispense(rx.id, withItems([{ id: MED_A, amount: 1 }])),
        full(rx.id, '?force=false'),
        dispense(rx.id, withItems([{ id: MED_A, amount: 1 }], '?force=false')),
      ]) {
        await refuses(rx.id, call, 403, 'forbidden', 'unknown_error');
      }
    });

    it('records force=true without a body as another full dispensation', async () => {
      const rx = await fullyDispensed();
      await appends(rx.id, full(rx.id, '?force=true'), 'full_dispense');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, true);
      assert.equal(result.events.length, 3);
    });

    it('records force=true with items as a forced partial dispensation (seed rule 6)', async () => {
      const rx = await fullyDispensed();
      const event = await appends(
        rx.id,
        dispense(rx.id, withItems([{ id: MED_A, amount: 1 }], '?force=true')),
        'partial_dispense',
      );
      assert.deepEqual(event.dispenses, [{ id: MED_A, amount: 1 }]);
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, true);
      assert.equal(result.partial_dispensations.length, 1);
    });

    it('lets another pharmacist force as well', async () => {
      const rx = await fullyDispensed();
      const event = await appends(
        rx.id,
        dispense(rx.id, { query: '?force=true', actor: server.pharmacist2 }),
        'full_dispense',
      );
      assert.equal(event.actor, server.pharmacist2.sub);
    });
  });

  describe('partial dispensation (seed §4.1 rules 2–4, §2.4)', () => {
    // Tests about the shape of the items take a roomy prescription: the sample's quantities and
    // its ban on substituting MED_B are the subject of test/e2e/prescription-rules.
    it('records items with and without substitutes, flattened in partial_dispensations', async () => {
      const rx = await createPrescription(server, roomyPrescription());
      const sent = [
        { id: MED_A, amount: 1 },
        { id: MED_B, amount: 2, substitute: SUBSTITUTE, substitute_id_type: 2 },
        { id: MED_B, amount: 1, substitute: 'Magistral: Salbe 50 g', substitute_id_type: 1 },
      ];
      const event = await appends(rx.id, dispense(rx.id, withItems(sent)), 'partial_dispense');
      assert.deepEqual(Object.keys(event).sort(), [...EVENT_KEYS, 'dispenses'].sort());
      assert.deepEqual(event.dispenses, sent);
      await appends(
        rx.id,
        dispense(rx.id, {
          ...withItems([{ id: MED_A, amount: 3, substitute: 'PC-1', substitute_id_type: 3 }]),
          actor: server.pharmacist2,
        }),
        'partial_dispense',
      );
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, false, 'partials short of the quantities do not complete it');
      const rows = (result.partial_dispensations as JsonObject[]).map(({ timestamp, ...rest }) => {
        assert.match(timestamp, /Z$/);
        return rest;
      });
      assert.deepEqual(rows, [
        {
          amount: 1,
          dispensed_by: server.pharmacist.sub,
          medicine_id: MED_A,
          substitute: '',
          substitute_id_type: 0,
        },
        {
          amount: 2,
          dispensed_by: server.pharmacist.sub,
          medicine_id: MED_B,
          substitute: SUBSTITUTE,
          substitute_id_type: 2,
        },
        {
          amount: 1,
          dispensed_by: server.pharmacist.sub,
          medicine_id: MED_B,
          substitute: 'Magistral: Salbe 50 g',
          substitute_id_type: 1,
        },
        {
          amount: 3,
          dispensed_by: server.pharmacist2.sub,
          medicine_id: MED_A,
          substitute: 'PC-1',
          substitute_id_type: 3,
        },
      ]);
    });

    it('completes a prescription once partials reach every prescribed quantity, not before', async () => {
      // The sample prescribes 1 package of MED_A and 2 × (1 + 3) = 8 of MED_B (SPEC.md §10).
      const rx = await createPrescription(server);
      const partial = (items: JsonObject[], actor = server.pharmacist) =>
        appends(rx.id, dispense(rx.id, { ...withItems(items), actor }), 'partial_dispense');
      for (const items of [
        [
          { id: MED_A, amount: 1 },
          { id: MED_B, amount: 2 },
        ],
        [{ id: MED_B, amount: 2 }],
        [{ id: MED_B, amount: 3 }],
      ]) {
        await partial(items);
        const result = await verify(server, rx.link, server.pharmacist.token);
        assert.equal(result.dispensed, false, 'MED_B is short of its 8 packages');
        assert.equal('dispensed_at' in result || 'dispensed_by' in result, false);
        assert.equal((await verify(server, rx.link)).dispensed, false);
      }
      const completing = await partial([{ id: MED_B, amount: 1 }], server.pharmacist2);
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, true);
      assert.equal(result.dispensed_at, completing.timestamp);
      assert.equal(result.dispensed_by, server.pharmacist2.sub);
      assert.equal(result.partial_dispensations.length, 5);
      assert.equal((await verify(server, rx.link)).dispensed, true);
      // Complete now: the next partial without force gets the seed §7 403; a full dispensation is
      // HIN's closing step, accepted once (SPEC.md §5), and the one after it gets the 403 too.
      await refuses(
        rx.id,
        dispense(rx.id, withItems([{ id: MED_A, amount: 1 }])),
        403,
        'forbidden',
        'unknown_error',
      );
      await appends(rx.id, full(rx.id), 'full_dispense');
      await refuses(rx.id, full(rx.id), 403, 'forbidden', 'unknown_error');
    });

    it('takes a full dispensation after partial ones', async () => {
      const rx = await createPrescription(server);
      await appends(
        rx.id,
        dispense(rx.id, withItems([{ id: MED_B, amount: 2 }])),
        'partial_dispense',
      );
      assert.equal((await verify(server, rx.link)).dispensed, false);
      const event = await appends(rx.id, full(rx.id), 'full_dispense');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, true);
      assert.equal(result.dispensed_at, event.timestamp);
      assert.equal(result.dispensed_by, server.pharmacist.sub);
    });

    it('takes amounts 1 and 10,000 and a charset parameter on the Content-Type', async () => {
      const rx = await createPrescription(server, roomyPrescription());
      const event = await appends(
        rx.id,
        dispense(rx.id, {
          body: JSON.stringify([
            { id: MED_A, amount: 1 },
            { id: MED_B, amount: 10_000 },
          ]),
          contentType: 'application/json; charset=utf-8',
        }),
        'partial_dispense',
      );
      assert.deepEqual(
        event.dispenses.map((d: { amount: number }) => d.amount),
        [1, 10_000],
      );
    });

    it('takes 50 items in one call', async () => {
      const rx = await createPrescription(server, roomyPrescription());
      const fifty = Array.from({ length: 50 }, () => ({ id: MED_A, amount: 1 }));
      const event = await appends(rx.id, dispense(rx.id, withItems(fifty)), 'partial_dispense');
      assert.equal(event.dispenses.length, 50);
    });
  });
});
