/**
 * The store contract on PostgreSQL: a database of its own per test, siblings as second pools on the
 * same database (another instance, as far as PostgreSQL can tell). Skips with a printed reason
 * when no PostgreSQL answers, unless it is required (`test/support/postgres.ts`).
 */
import { createTestDatabase, postgresSuite } from '../support/postgres.js';
import { runStoreContract } from './contract.js';
import type { Store } from '../../src/store/types.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';

await postgresSuite('postgres', () =>
  runStoreContract('postgres', async () => {
    const db = await createTestDatabase();
    const opened: Store[] = [];
    const open = async (): Promise<Store> => {
      const store = openPostgresStore(db.url, { poolSize: 4 });
      opened.push(store);
      await store.migrate();
      return store;
    };
    return {
      store: await open(),
      openSibling: open,
      cleanup: async () => {
        for (const s of opened) await s.close();
        await db.drop();
      },
    };
  }),
);
