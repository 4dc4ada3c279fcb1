/**
 * The refusals of `POST /ePrescription/dispense/{id}` over a real socket (seed §2.2, SPEC.md §5):
 * every 400 of a body, an item or the query, the wrong role, a missing token, an unknown or
 * revoked prescription; each leaves the event count unchanged.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { MED_A } from '../support/fixtures.js';
import {
  calls,
  createPrescription,
  eventCount,
  expectationsOn,
  verify,
  withItems,
} from '../support/e2e.js';
import type { Created, DispenseOptions } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

describe('dispense refusals', () => {
  const server = useTestServer();
  const { appends, refuses } = expectationsOn(server);
  const { dispense, full } = calls(server);

  describe('refused bodies and queries (400)', () => {
    let rx: Created;
    before(async () => {
      rx = await createPrescription(server);
    });

    const cases: [string, DispenseOptions][] = [
      ['an unknown medicament id', withItems([{ id: '7680000000000', amount: 1 }])],
      ['amount 0', withItems([{ id: MED_A, amount: 0 }])],
      ['amount -1', withItems([{ id: MED_A, amount: -1 }])],
      ['amount 10001', withItems([{ id: MED_A, amount: 10001 }])],
      ['amount 1.5', withItems([{ id: MED_A, amount: 1.5 }])],
      ['amount "3"', withItems([{ id: MED_A, amount: '3' }])],
      ['a missing amount', withItems([{ id: MED_A }])],
      ['a missing id', withItems([{ amount: 1 }])],
      [
        'a substitute without substitute_id_type',
        withItems([{ id: MED_A, amount: 1, substitute: 'X' }]),
      ],
      [
        'a substitute_id_type without substitute',
        withItems([{ id: MED_A, amount: 1, substitute_id_type: 2 }]),
      ],
      [
        'substitute_id_type 4',
        withItems([{ id: MED_A, amount: 1, substitute: 'X', substitute_id_type: 4 }]),
      ],
      [
        'substitute_id_type 0',
        withItems([{ id: MED_A, amount: 1, substitute: 'X', substitute_id_type: 0 }]),
      ],
      [
        'substitute_id_type "2"',
        withItems([{ id: MED_A, amount: 1, substitute: 'X', substitute_id_type: '2' }]),
      ],
      ['51 items', withItems(Array.from({ length: 51 }, () => ({ id: MED_A, amount: 1 })))],
      ['an empty array', withItems([])],
      ['an unknown property in an item', withItems([{ id: MED_A, amount: 1, note: 'x' }])],
      ['an object body', withItems({ id: MED_A, amount: 1 })],
      ['a null body', withItems(null)],
      ['a string body', withItems('full')],
      ['an item that is not an object', withItems([MED_A])],
      ['malformed JSON', { body: '[{"id":', contentType: 'application/json', query: '' }],
      ['force=yes', { contentType: 'application/json', query: '?force=yes' }],
      ['force=2', { contentType: 'application/json', query: '?force=2' }],
      ['force=on', { contentType: 'application/json', query: '?force=on' }],
      ['force given twice', { contentType: 'application/json', query: '?force=true&force=true' }],
      ['force=yes with items', withItems([{ id: MED_A, amount: 1 }], '?force=yes')],
      [
        'an empty substitute',
        withItems([{ id: MED_A, amount: 1, substitute: '', substitute_id_type: 1 }]),
      ],
    ];
    for (const [name, options] of cases) {
      it(`refuses ${name}`, async () => {
        await refuses(rx.id, dispense(rx.id, options), 400, 'bad_request');
      });
    }

    it('names the unknown medicament in violations', async () => {
      const answer = await refuses(
        rx.id,
        dispense(
          rx.id,
          withItems([
            { id: MED_A, amount: 1 },
            { id: 'nope', amount: 1 },
          ]),
        ),
        400,
        'bad_request',
      );
      assert.deepEqual(
        answer.json.violations.map((v: { path: string }) => v.path),
        ['/1/id'],
      );
    });

    it('has appended nothing after all the refusals', async () => {
      assert.equal(await eventCount(server, rx.id), 1);
      assert.equal((await verify(server, rx.link)).dispensed, false);
    });
  });

  describe('refused callers and states', () => {
    it('refuses a prescriber with 403', async () => {
      const rx = await createPrescription(server);
      for (const actor of [server.doctor, server.doctor2]) {
        await refuses(
          rx.id,
          dispense(rx.id, { actor, contentType: 'application/json' }),
          403,
          'forbidden',
        );
        await refuses(
          rx.id,
          dispense(rx.id, { ...withItems([{ id: MED_A, amount: 1 }]), actor }),
          403,
          'forbidden',
        );
      }
    });

    it('refuses a call without a token, or with an inactive one, with 401', async () => {
      const rx = await createPrescription(server);
      await refuses(
        rx.id,
        () =>
          server.request('POST', `/ePrescription/dispense/${rx.id}`, {
            contentType: 'application/json',
          }),
        401,
        'unauthorized',
      );
      await refuses(
        rx.id,
        () =>
          server.request('POST', `/ePrescription/dispense/${rx.id}`, {
            token: 'expired-or-unknown',
            contentType: 'application/json',
          }),
        401,
        'unauthorized',
      );
    });

    it('answers 404 for an unknown prescription', async () => {
      const id = randomUUID();
      await refuses(id, full(id), 404, 'not_found');
      await refuses(id, dispense(id, withItems([{ id: MED_A, amount: 1 }])), 404, 'not_found');
    });

    it('refuses a revoked prescription with 403 revoked, with or without force', async () => {
      const rx = await createPrescription(server);
      await appends(
        rx.id,
        () =>
          server.request('POST', `/ePrescription/revoke/${rx.id}`, { token: server.doctor.token }),
        'revoke',
      );
      for (const call of [
        full(rx.id),
        full(rx.id, '?force=true'),
        dispense(rx.id, withItems([{ id: MED_A, amount: 1 }])),
        dispense(rx.id, withItems([{ id: MED_A, amount: 1 }], '?force=true')),
      ]) {
        await refuses(rx.id, call, 403, 'forbidden', 'revoked');
      }
    });
  });
});
