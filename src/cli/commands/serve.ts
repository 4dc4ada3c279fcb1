/** `erx serve`: run the service on the configured store. */
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { serve } from '../../server/serve.js';

/** Registers `serve` on `program`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the e-prescription service (SQLite in ERX_DATA_DIR unless ERX_DATABASE_URL)')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)')
    .option('--no-migrate', 'do not apply pending migrations (run erx migrate first)')
    .action(async (options: { port?: string; migrate: boolean }) => {
      const config = loadConfig(undefined, { PORT: options.port });
      await serve(config, { migrate: options.migrate });
    });
}
