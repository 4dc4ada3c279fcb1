/**
 * The transparency log's rows edited directly, as someone with write access to the database would
 * (SQLite file or PostgreSQL), for the monitor's tampering cases; values are parameters.
 */
import Database from 'better-sqlite3';
import { sqlitePath } from '../../src/server/open-store.js';
import { withConnection } from './postgres.js';

/** One statement in SQLite's form (`?` parameters); PostgreSQL's `$n` are made from it. */
export interface Statement {
  sql: string;
  params: (string | number | Buffer)[];
}

/** Runs `statements` in one transaction on the database of an erx with `dataDir`/`databaseUrl`. */
export async function editLogRows(
  dataDir: string,
  databaseUrl: string | undefined,
  statements: readonly Statement[],
): Promise<void> {
  if (databaseUrl !== undefined) {
    await withConnection(databaseUrl, async (client) => {
      await client.query('BEGIN');
      for (const { sql, params } of statements) {
        let n = 0;
        await client.query(
          sql.replaceAll('?', () => `$${++n}`),
          params,
        );
      }
      await client.query('COMMIT');
    });
    return;
  }
  const db = new Database(sqlitePath(dataDir));
  try {
    db.pragma('busy_timeout = 5000');
    db.transaction(() => {
      for (const { sql, params } of statements) db.prepare(sql).run(...params);
    })();
  } finally {
    db.close();
  }
}
