/**
 * Applies the PostgreSQL side of `../migrations.ts`. Several instances may start at once (SPEC.md
 * §1): all pending versions are applied in one transaction under a transaction-scoped advisory
 * lock, re-read under that lock, so each version is applied exactly once and a failed migration
 * leaves no trace (PostgreSQL's DDL is transactional).
 */
import type pg from 'pg';
import { ErxError } from '../../errors.js';
import { MIGRATIONS } from '../migrations.js';
import { withClient, withTransaction } from './pool.js';

/** Advisory lock key of the schema ("erx" in ASCII); only erx's migrations take it. */
const MIGRATION_LOCK_KEY = 0x657278;

/** Applies every pending migration. */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  await withTransaction(pool, async (client) => {
    // Event bodies are stored as the exact signed text (SPEC.md §7): a database in another
    // encoding could not hold every character of them.
    const encoding = await client.query<{ server_encoding: string }>('SHOW server_encoding');
    const name = encoding.rows[0]?.server_encoding;
    if (name !== 'UTF8') {
      throw new ErxError('internal_error', 'The PostgreSQL database must use UTF-8 encoding.', {
        detail: { serverEncoding: name },
      });
    }
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    // A migration may rewrite a large table; the per-statement cap is for requests, not this.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)',
    );
    const done = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(done.rows.map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await client.query(m.postgres);
      await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
        m.version,
        Date.now(),
      ]);
    }
  });
}

/** The highest applied version (0 when the database has never been migrated). */
export async function postgresSchemaVersion(pool: pg.Pool): Promise<number> {
  return withClient(pool, async (client) => {
    const table = await client.query<{ t: string | null }>(
      "SELECT to_regclass('schema_migrations')::text AS t",
    );
    if (table.rows[0]?.t == null) return 0;
    const max = await client.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM schema_migrations',
    );
    return max.rows[0]?.v ?? 0;
  });
}
