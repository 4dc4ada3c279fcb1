/**
 * Several instances over one PostgreSQL database (SPEC.md §1, §7): a held chain takes the row lock
 * on the prescription, so appends decided on held chains wait for each other across instances and
 * never lose a race; the head's compare-and-swap keeps a chain linear even for appends made on
 * chains read without a hold; the primary key settles concurrent creates of one id.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { postgresSuite, withConnection, withTestDatabase } from '../../../test/support/postgres.js';
import type { TestDatabase } from '../../../test/support/postgres.js';
import { isErxError } from '../../errors.js';
import {
  assertLinear,
  appendHeld,
  decideNext,
  insertNew,
  newPrescription,
} from '../../../test/store-contract/fixture.js';
import { openPostgresStore } from './postgres-store.js';
import type { PostgresStore, PostgresStoreOptions } from './postgres-store.js';
import { AlreadyExists, StaleHead } from '../races.js';

/** Runs `fn` with `count` migrated stores on one fresh database (instances, to PostgreSQL). */
async function withInstances(
  count: number,
  fn: (stores: PostgresStore[], db: TestDatabase) => Promise<void>,
  options: PostgresStoreOptions = {},
): Promise<void> {
  await withTestDatabase(async (db) => {
    const stores = Array.from({ length: count }, () =>
      openPostgresStore(db.url, { poolSize: 4, ...options }),
    );
    try {
      for (const s of stores) await s.migrate();
      await fn(stores, db);
    } finally {
      for (const s of stores) await s.close();
    }
  });
}

const LOCK_ROW = 'SELECT 1 FROM prescriptions WHERE id = $1 FOR UPDATE';

await postgresSuite('postgres store with several instances', () => {
  it('lets every concurrent held append of three instances through, in one linear chain', () =>
    withInstances(3, async (stores) => {
      const { row } = await insertNew(stores[0]!);
      const appended = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          appendHeld(stores[i % 3]!, row.id, decideNext({ maxDelayMs: 3 })),
        ),
      );
      const events = await assertLinear(stores[1]!, row.id);
      assert.equal(events.length, 61);
      assert.deepEqual(
        new Set(events.slice(1).map((e) => e.id)),
        new Set(appended.map((e) => e.id)),
      );
    }));

  it('never forks a chain when three instances append on chains read without a hold', () =>
    withInstances(3, async (stores) => {
      const { row } = await insertNew(stores[0]!);
      const results = await Promise.allSettled(
        Array.from({ length: 60 }, async (_, i) => {
          const store = stores[i % 3]!;
          const read = await store.readChain(row.id);
          assert.ok(read);
          const decision = await decideNext({ maxDelayMs: 3 })(read.state);
          await store.appendEvent(decision, read.state.prescription.headHash);
          return decision.event;
        }),
      );
      const landed = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      for (const r of results) {
        if (r.status === 'rejected') assert.ok(r.reason instanceof StaleHead, String(r.reason));
      }
      const events = await assertLinear(stores[1]!, row.id);
      assert.equal(events.length, 1 + landed.length);
      assert.deepEqual(new Set(events.slice(1).map((e) => e.id)), new Set(landed.map((e) => e.id)));
    }));

  it('creates each id once when instances race to create the same ids', () =>
    withInstances(3, async (stores) => {
      const ids = Array.from({ length: 30 }, (_, i) => `rx-${String(i).padStart(2, '0')}`);
      const results = await Promise.allSettled(
        ids.flatMap((id) =>
          stores.map((s) => {
            const p = newPrescription(id);
            return s.insertPrescription(p.row, p.create);
          }),
        ),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, ids.length);
      for (const r of results) {
        if (r.status === 'rejected')
          assert.ok(r.reason instanceof AlreadyExists && r.reason.what === 'prescription');
      }
      for (const id of ids) assert.equal((await assertLinear(stores[2]!, id)).length, 1);
      assert.equal(await stores[0]!.prescriptions.count(), ids.length);
    }));

  it('makes a hold wait while another session holds the prescription row lock', () =>
    withInstances(1, async ([store], db) => {
      const { row } = await insertNew(store!);
      await withConnection(db.url, async (other) => {
        await other.query('BEGIN');
        await other.query(LOCK_ROW, [row.id]);
        let decided = false;
        const append = appendHeld(store!, row.id, async (state) => {
          decided = true;
          return decideNext()(state);
        });
        await sleep(200);
        assert.equal(decided, false, 'the decision waits for the lock');
        await other.query('COMMIT');
        await append;
      });
      assert.equal((await assertLinear(store!, row.id)).length, 2);
    }));

  it('answers service_unavailable when the row lock is not granted in time, writing nothing', () =>
    withInstances(
      1,
      async ([store], db) => {
        const { row, create } = await insertNew(store!);
        await withConnection(db.url, async (other) => {
          await other.query('BEGIN');
          await other.query(LOCK_ROW, [row.id]);
          await assert.rejects(
            appendHeld(store!, row.id, decideNext()),
            (e: unknown) => isErxError(e) && e.code === 'service_unavailable',
          );
          await other.query('ROLLBACK');
        });
        assert.deepEqual(await assertLinear(store!, row.id), [create.event]);
      },
      { statementTimeoutMillis: 200 },
    ));
});
