/**
 * Several instances over one PostgreSQL database (SPEC.md §1, §7): the row lock on the prescription
 * serialises appends across connections, so no instance ever loses a race or forks a chain, and the
 * primary key settles concurrent creates of one id.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { postgresSuite, withConnection, withTestDatabase } from '../../../test/support/postgres.js';
import type { TestDatabase } from '../../../test/support/postgres.js';
import { isErxError } from '../../errors.js';
import {
  assertLinear,
  decideNext,
  insertNew,
  newPrescription,
} from '../../../test/store-contract/fixture.js';
import { openPostgresStore } from './postgres-store.js';
import type { PostgresStore, PostgresStoreOptions } from './postgres-store.js';
import { AlreadyExists } from '../races.js';

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
  it('lets every concurrent append of three instances through, in one linear chain', () =>
    withInstances(3, async (stores) => {
      const { row } = await insertNew(stores[0]!);
      const appended = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          stores[i % 3]!.appendEvent(row.id, decideNext({ maxDelayMs: 3 })),
        ),
      );
      const events = await assertLinear(stores[1]!, row.id);
      assert.equal(events.length, 61);
      assert.deepEqual(
        new Set(events.slice(1).map((e) => e.id)),
        new Set(appended.map((e) => e.id)),
      );
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
      assert.equal(await stores[0]!.countPrescriptions(), ids.length);
    }));

  it('makes an append wait while another session holds the prescription row lock', () =>
    withInstances(1, async ([store], db) => {
      const { row } = await insertNew(store!);
      await withConnection(db.url, async (other) => {
        await other.query('BEGIN');
        await other.query(LOCK_ROW, [row.id]);
        let decided = false;
        const append = store!.appendEvent(row.id, async (state) => {
          decided = true;
          return decideNext()(state);
        });
        await sleep(200);
        assert.equal(decided, false, 'decide waits for the lock');
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
            store!.appendEvent(row.id, decideNext()),
            (e: unknown) => isErxError(e) && e.code === 'service_unavailable',
          );
          await other.query('ROLLBACK');
        });
        assert.deepEqual(await assertLinear(store!, row.id), [create.event]);
      },
      { statementTimeoutMillis: 200 },
    ));
});
