/**
 * Contract: remembered calls (`Idempotency-Key`, SPEC.md §5). The row is written in the same
 * transaction as the event it answers with; a second row for the same (actor, key) is refused as
 * {@link IdempotencyRace}, and then nothing of that call is written.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { IdempotencyRace } from '../../src/store/races.js';
import {
  assertLinear,
  appendHeld,
  decideNext,
  idempotencyRow,
  newPrescription,
  withFixture,
} from './fixture.js';
import type { OpenFixture } from './fixture.js';

/** Registers the idempotency tests of the contract. */
export function idempotencyContract(open: OpenFixture): void {
  it('remembers a create and an append with their answers', () =>
    withFixture(open, async ({ store }) => {
      const p = newPrescription();
      const remembered = idempotencyRow('HIN|doc1', 'k-create', p.row.id, p.create.event.id);
      const withAnswer = { ...remembered, answer: 'a1b2c3 signature hex' };
      await store.insertPrescription(p.row, { ...p.create, idempotency: withAnswer });
      assert.deepEqual(await store.idempotency.get('HIN|doc1', 'k-create'), withAnswer);

      const event = await appendHeld(
        store,
        p.row.id,
        decideNext({
          idempotency: (e) => idempotencyRow('HIN|pharma1', 'k-append', p.row.id, e.id),
        }),
      );
      const stored = await store.idempotency.get('HIN|pharma1', 'k-append');
      assert.deepEqual(stored, idempotencyRow('HIN|pharma1', 'k-append', p.row.id, event.id));
      assert.equal(stored !== undefined && 'answer' in stored, false);

      assert.equal(await store.idempotency.get('HIN|pharma1', 'k-create'), undefined);
      assert.equal(await store.idempotency.get('HIN|doc1', 'unknown'), undefined);
    }));

  it('refuses a second create with the same actor and key, writing nothing of it', () =>
    withFixture(open, async ({ store }) => {
      const first = newPrescription();
      const row = idempotencyRow('HIN|doc1', 'k1', first.row.id, first.create.event.id);
      await store.insertPrescription(first.row, { ...first.create, idempotency: row });
      const second = newPrescription();
      await assert.rejects(
        store.insertPrescription(second.row, {
          ...second.create,
          idempotency: idempotencyRow('HIN|doc1', 'k1', second.row.id, second.create.event.id),
        }),
        (e: unknown) => e instanceof IdempotencyRace,
      );
      assert.equal((await store.readChain(second.row.id))?.state.prescription, undefined);
      assert.equal(await store.getEvent(second.create.event.id), undefined);
      assert.deepEqual(await store.idempotency.get('HIN|doc1', 'k1'), row);
      assert.equal(await store.prescriptions.count(), 1);

      // The same key of another actor is another call.
      const third = newPrescription();
      await store.insertPrescription(third.row, {
        ...third.create,
        idempotency: idempotencyRow('HIN|doc2', 'k1', third.row.id, third.create.event.id),
      });
      assert.equal(await store.prescriptions.count(), 2);
    }));

  it('refuses a second append with the same actor and key, writing nothing of it', () =>
    withFixture(open, async ({ store }) => {
      const p = newPrescription();
      await store.insertPrescription(p.row, p.create);
      const remember = decideNext({
        idempotency: (e) => idempotencyRow('HIN|pharma1', 'k2', p.row.id, e.id),
      });
      const first = await appendHeld(store, p.row.id, remember);
      await assert.rejects(
        appendHeld(store, p.row.id, remember),
        (e: unknown) => e instanceof IdempotencyRace,
      );
      assert.deepEqual(await assertLinear(store, p.row.id), [p.create.event, first]);
      assert.equal((await store.idempotency.get('HIN|pharma1', 'k2'))?.eventId, first.id);
    }));

  it('forgets remembered calls older than the given time', () =>
    withFixture(open, async ({ store }) => {
      const p = newPrescription();
      await store.insertPrescription(p.row, p.create);
      const times = [1_000, 2_000, 2_500, 3_000];
      for (const [i, t] of times.entries()) {
        await appendHeld(
          store,
          p.row.id,
          decideNext({ idempotency: (e) => idempotencyRow('a', `k${i}`, p.row.id, e.id, t) }),
        );
      }
      assert.equal(await store.idempotency.purge(2_500), 2);
      assert.equal(await store.idempotency.get('a', 'k0'), undefined);
      assert.equal(await store.idempotency.get('a', 'k1'), undefined);
      assert.equal((await store.idempotency.get('a', 'k2'))?.createdAt, 2_500);
      assert.equal((await store.idempotency.get('a', 'k3'))?.createdAt, 3_000);
      assert.equal(await store.idempotency.purge(2_500), 0);
      // The events stay: only the memory of the calls goes.
      assert.equal((await assertLinear(store, p.row.id)).length, 5);
    }));
}
