/** Direct access to a running test server's rows, bypassing erx (`./rows.ts`), on either engine. */
import { sqlitePath } from '../../src/server/open-store.js';
import { withConnection } from '../support/postgres.js';
import type { TestServer } from '../support/server.js';
import { postgresRows, sqliteRows } from './rows.js';
import type { RowEditor } from './rows.js';

/** Runs `edit` on the rows of `server`'s database, over a connection of its own. */
export async function withRows(
  server: TestServer,
  edit: (rows: RowEditor) => Promise<void>,
): Promise<void> {
  const url = server.runtime.config.databaseUrl;
  if (url !== undefined) return withConnection(url, (client) => edit(postgresRows(client)));
  const rows = sqliteRows(sqlitePath(server.dataDir));
  try {
    await edit(rows);
  } finally {
    rows.close();
  }
}
