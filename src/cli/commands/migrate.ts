/**
 * `erx migrate`: apply the store's pending migrations explicitly, report the schema version, and
 * sign the terms of prescriptions written before terms were signed.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { openConfiguredStore } from '../../server/open-store.js';
import { keyPaths } from '../../server/runtime.js';
import { LinkKeyring } from '../../link/index.js';
import { signOldTerms } from '../../service/operations/sign-old-terms.js';

/** Registers `migrate` on `program`. */
export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(
      'apply pending migrations to the configured store (SQLite in ERX_DATA_DIR unless ERX_DATABASE_URL) and sign the terms of prescriptions made before terms were signed; safe while instances run',
    )
    .action(async () => {
      const config = loadConfig();
      const store = openConfiguredStore(config);
      try {
        const before = await store.schemaVersion();
        await store.migrate();
        const after = await store.schemaVersion();
        process.stdout.write(
          before === after
            ? `${store.engine}: schema version ${after}, up to date\n`
            : `${store.engine}: schema version ${before} -> ${after}\n`,
        );
        const keys = () => LinkKeyring.open(keyPaths(config.dataDir).linkKeys);
        const signed = await signOldTerms(store, keys, config.prescriptionValidityMs);
        if (signed > 0) {
          process.stdout.write(`signed the terms of ${signed} prescriptions made before them\n`);
        }
      } finally {
        await store.close();
      }
    });
}
