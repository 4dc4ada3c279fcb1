/** The store contract on SQLite: a fresh database file per test, siblings on the same file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { runStoreContract } from './contract.js';

runStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'erx-sqlite-contract-'));
  const file = join(dir, 'erx.sqlite');
  const opened: Store[] = [openSqliteStore(file)];
  return {
    store: opened[0]!,
    openSibling: async () => {
      const sibling = openSqliteStore(file);
      opened.push(sibling);
      return sibling;
    },
    cleanup: async () => {
      for (const s of opened) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
