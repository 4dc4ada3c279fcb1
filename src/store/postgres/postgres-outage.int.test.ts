/**
 * PostgreSQL going away under a running store (backends terminated, as a restart does): calls in
 * the gap answer `service_unavailable`, nothing acknowledged is lost, the chain stays linear, the
 * pool recovers by itself and the process does not crash on errors of idle connections.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import {
  postgresSuite,
  terminateErxBackends,
  withTestDatabase,
} from '../../../test/support/postgres.js';
import type { TestDatabase } from '../../../test/support/postgres.js';
import { isErxError } from '../../errors.js';
import {
  assertLinear,
  appendHeld,
  decideNext,
  insertNew,
} from '../../../test/store-contract/fixture.js';
import type { EventRow } from '../types.js';
import { openPostgresStore } from './postgres-store.js';
import type { PostgresStore } from './postgres-store.js';

function isUnavailable(e: unknown): boolean {
  return isErxError(e) && e.code === 'service_unavailable' && e.retryAfter === 1;
}

async function withStore(
  fn: (store: PostgresStore, db: TestDatabase) => Promise<void>,
  onPoolError?: (e: Error) => void,
): Promise<void> {
  await withTestDatabase(async (db) => {
    const store = openPostgresStore(db.url, {
      poolSize: 4,
      ...(onPoolError ? { onPoolError } : {}),
    });
    try {
      await store.migrate();
      await fn(store, db);
    } finally {
      await store.close();
    }
  });
}

await postgresSuite('postgres store through an outage', () => {
  it('reports idle connections dropped by the server and reconnects on the next call', async () => {
    const poolErrors: Error[] = [];
    await withStore(
      async (store, db) => {
        await Promise.all([store.ping(), store.ping(), store.ping()]);
        assert.ok((await terminateErxBackends(db)) > 0);
        for (let i = 0; i < 100 && poolErrors.length === 0; i++) await sleep(10);
        assert.ok(poolErrors.length > 0, 'the idle connections reported their end');
        assert.equal((poolErrors[0] as { code?: string }).code, '57P01');
        await store.ping();
        assert.equal(await store.prescriptions.count(), 0);
      },
      (e) => poolErrors.push(e),
    );
  });

  it('answers service_unavailable when the connection dies while decide signs, writing nothing', () =>
    withStore(async (store, db) => {
      const { row, create } = await insertNew(store);
      await assert.rejects(
        appendHeld(store, row.id, async (state) => {
          await terminateErxBackends(db);
          return decideNext()(state);
        }),
        isUnavailable,
      );
      assert.deepEqual(await assertLinear(store, row.id), [create.event]);
      await appendHeld(store, row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).length, 2);
    }));

  it('keeps every acknowledged append through repeated terminations in an append storm', () =>
    withStore(async (store, db) => {
      const { row } = await insertNew(store);
      let storming = true;
      const storm = (async () => {
        let kills = 0;
        while (storming) {
          await sleep(15);
          kills += await terminateErxBackends(db);
        }
        return kills;
      })();
      const results = await Promise.allSettled(
        Array.from({ length: 80 }, () => appendHeld(store, row.id, decideNext({ maxDelayMs: 3 }))),
      );
      storming = false;
      assert.ok((await storm) > 0, 'connections were terminated during the storm');
      const acknowledged: EventRow[] = [];
      for (const r of results) {
        if (r.status === 'fulfilled') acknowledged.push(r.value);
        else assert.ok(isUnavailable(r.reason), String(r.reason));
      }
      const events = await assertLinear(store, row.id);
      const ids = new Set(events.map((e) => e.id));
      for (const e of acknowledged) assert.ok(ids.has(e.id), `acknowledged event ${e.seq} kept`);
      // A commit whose answer was lost with the connection may be kept without an acknowledgement.
      assert.ok(events.length >= 1 + acknowledged.length);
      await appendHeld(store, row.id, decideNext());
      assert.equal((await assertLinear(store, row.id)).length, events.length + 1);
    }));
});
