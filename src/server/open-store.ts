/** Picks the store the configuration names (SPEC.md §9): SQLite in the data dir, or PostgreSQL. */
import { join } from 'node:path';
import type { Config } from '../config/index.js';
import { ErxError } from '../errors.js';
import { LATEST_SCHEMA_VERSION } from '../store/migrations.js';
import { openPostgresStore } from '../store/postgres/postgres-store.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/types.js';

/** How {@link openStore} prepares the store. */
export interface OpenStoreOptions {
  /**
   * Apply pending migrations on open (default true). With false, a PostgreSQL database behind this
   * code's schema is refused (run `erx migrate` first). SQLite always migrates on open: its file
   * belongs to this data directory alone.
   */
  migrate?: boolean;
  /** SQLite: checkpoint the WAL on a background thread (a running service; see the SQLite store). */
  backgroundCheckpoints?: boolean;
}

/** The SQLite file of a data directory. */
export function sqlitePath(dataDir: string): string {
  return join(dataDir, 'erx.sqlite');
}

/**
 * The configured engine, opened as is: PostgreSQL when `databaseUrl` is set, else SQLite in the
 * data dir. Prefer {@link openStore}; this is for `erx migrate`, which reports the version it found.
 */
export function openConfiguredStore(
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'memory'>>,
  options: Pick<OpenStoreOptions, 'backgroundCheckpoints'> = {},
): Store {
  return config.databaseUrl === undefined
    ? openSqliteStore(sqlitePath(config.dataDir), { ...options, memory: config.memory })
    : openPostgresStore(config.databaseUrl);
}

/** Opens the configured store, migrated (or checked to be current, with `migrate: false`). */
export async function openStore(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const store = openConfiguredStore(config, options);
  try {
    if (options.migrate ?? true) {
      await store.migrate();
    } else {
      await requireCurrentSchema(store);
    }
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function requireCurrentSchema(store: Store): Promise<void> {
  const version = await store.schemaVersion();
  // A newer schema is accepted: during a rolling upgrade, older instances run beside it.
  if (version < LATEST_SCHEMA_VERSION) {
    throw new ErxError(
      'service_unavailable',
      `The database schema is at version ${version}; this erx needs version ${LATEST_SCHEMA_VERSION}. Run "erx migrate".`,
      { detail: { engine: store.engine, version, required: LATEST_SCHEMA_VERSION } },
    );
  }
}
