/**
 * Applies the SQLite side of `../migrations.ts`: each pending version in its own `BEGIN IMMEDIATE`
 * transaction, re-checked under the write lock because another process may share the file.
 */
import type Database from 'better-sqlite3';
import { MIGRATIONS } from '../migrations.js';

/** Applies every pending migration to `db`. */
export function migrateSqlite(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  for (const m of MIGRATIONS) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      // Another process may have applied it between our read and our write lock.
      const again = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version);
      if (again) return;
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        m.version,
        Date.now(),
      );
    }).immediate();
  }
}

/** The highest applied version of `db` (0 when none). */
export function sqliteSchemaVersion(db: Database.Database): number {
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as {
    v: number | null;
  };
  return row.v ?? 0;
}
