/** `erx migrate`: apply the store's pending migrations explicitly and report the schema version. */
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { openConfiguredStore } from '../../server/open-store.js';

/** Registers `migrate` on `program`. */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(
      'apply pending migrations to the configured store (SQLite in ERX_DATA_DIR unless ERX_DATABASE_URL); safe while instances run',
    )
    .action(async () => {
      const store = openConfiguredStore(loadConfig());
      try {
        const before = await store.schemaVersion();
        await store.migrate();
        const after = await store.schemaVersion();
        process.stdout.write(
          before === after
            ? `${store.engine}: schema version ${after}, up to date\n`
            : `${store.engine}: schema version ${before} -> ${after}\n`,
        );
      } finally {
        await store.close();
      }
    });
}
