/**
 * The PostgreSQL schema: migrations applied once however many instances start together, the same
 * tables and columns as SQLite, text bodies and named unique keys (SPEC.md §7), and the store
 * chosen and migrated by the configuration (SPEC.md §9).
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { postgresSuite, withConnection, withTestDatabase } from '../../../test/support/postgres.js';
import { isErxError } from '../../errors.js';
import { openStore } from '../../server/open-store.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../migrations.js';
import { migrateSqlite } from '../sqlite/migrate.js';
import { openPostgresStore } from './postgres-store.js';

function sqliteColumns(): string[] {
  const db = new Database(':memory:');
  try {
    migrateSqlite(db);
    const rows = db
      .prepare(
        "SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'",
      )
      .all() as { t: string; c: string }[];
    return rows.map((r) => `${r.t}.${r.c}`).sort();
  } finally {
    db.close();
  }
}

await postgresSuite('postgres schema', () => {
  it('applies each migration once when six instances migrate at the same moment', () =>
    withTestDatabase(async (db) => {
      const stores = Array.from({ length: 6 }, () => openPostgresStore(db.url, { poolSize: 1 }));
      try {
        assert.equal(await stores[0]!.schemaVersion(), 0);
        await Promise.all(stores.map((s) => s.migrate()));
        for (const s of stores) assert.equal(await s.schemaVersion(), LATEST_SCHEMA_VERSION);
        await withConnection(db.url, async (c) => {
          const applied = await c.query<{ version: number }>(
            'SELECT version FROM schema_migrations ORDER BY version',
          );
          assert.deepEqual(
            applied.rows.map((r) => r.version),
            MIGRATIONS.map((m) => m.version),
          );
        });
      } finally {
        for (const s of stores) await s.close();
      }
    }));

  it('has the tables and columns of the SQLite schema, bodies as text, keys as declared', () =>
    withTestDatabase(async (db) => {
      const store = openPostgresStore(db.url);
      await store.migrate();
      await store.close();
      await withConnection(db.url, async (c) => {
        const cols = await c.query<{ t: string; c: string; type: string; coll: string | null }>(
          `SELECT table_name AS t, column_name AS c, data_type AS type, collation_name AS coll
           FROM information_schema.columns WHERE table_schema = current_schema()`,
        );
        const type = (t: string, col: string): string | undefined =>
          cols.rows.find((r) => r.t === t && r.c === col)?.type;
        assert.deepEqual(cols.rows.map((r) => `${r.t}.${r.c}`).sort(), sqliteColumns());
        assert.deepEqual(
          cols.rows.filter((r) => /json/.test(r.type)),
          [],
        );
        assert.equal(type('events', 'body'), 'text');
        for (const [t, col] of [
          ['prescriptions', 'issued_at'],
          ['idempotency', 'created_at'],
          ['tokens', 'expires_at'],
        ] as const) {
          assert.equal(type(t, col), 'bigint', `${t}.${col}`);
        }
        // Paging and listing order byte-wise whatever the database's locale (as in SQLite).
        for (const [t, col] of [
          ['prescriptions', 'id'],
          ['clients', 'client_id'],
        ] as const) {
          assert.equal(cols.rows.find((r) => r.t === t && r.c === col)?.coll, 'C');
        }
        const keys = await c.query<{ name: string }>(
          `SELECT conname AS name FROM pg_constraint
           WHERE connamespace = current_schema()::regnamespace AND contype IN ('p', 'u')`,
        );
        const names = new Set(keys.rows.map((r) => r.name));
        for (const name of [
          'prescriptions_pkey',
          'events_pkey',
          'events_id_key',
          'events_parent_key',
          'idempotency_pkey',
          'clients_pkey',
          'tokens_pkey',
        ]) {
          assert.ok(names.has(name), name);
        }
      });
    }));

  it('refuses to migrate a database that is not UTF-8', () =>
    withTestDatabase(async (db) => {
      const store = openPostgresStore(db.url);
      try {
        await assert.rejects(
          store.migrate(),
          (e: unknown) => isErxError(e) && e.code === 'internal_error',
        );
        assert.equal(await store.schemaVersion(), 0);
      } finally {
        await store.close();
      }
    }, 'SQL_ASCII'));

  it('is the configured store for a postgres:// URL, migrated on open unless told not to', () =>
    withTestDatabase(async (db) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'erx-open-store-'));
      const config = { dataDir, databaseUrl: db.url };
      try {
        await assert.rejects(
          openStore(config, { migrate: false }),
          (e: unknown) => isErxError(e) && e.code === 'service_unavailable',
        );
        const store = await openStore(config);
        assert.equal(store.engine, 'postgres');
        assert.equal(await store.schemaVersion(), LATEST_SCHEMA_VERSION);
        await store.close();
        const again = await openStore(config, { migrate: false });
        await again.ping();
        await again.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }));
});
