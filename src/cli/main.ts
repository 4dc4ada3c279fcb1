#!/usr/bin/env -S node --max-old-space-size=1024 --max-semi-space-size=8
/** The `erx` command line: one program, one file per group of commands under `commands/`. */
import { Command, CommanderError } from 'commander';
import { isErxError } from '../errors.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerCallCommands } from './commands/calls.js';
import { registerCatalogCommands } from './commands/catalog.js';
import { registerClientCommands } from './commands/clients.js';
import { registerDocumentCommands } from './commands/document.js';
import { registerFeedCommands } from './commands/feed.js';
import { registerKeyCommands } from './commands/keys.js';
import { registerLogCommands } from './commands/log.js';
import { registerMigrateCommand } from './commands/migrate.js';
import { registerReceiptCommands } from './commands/receipt.js';
import { registerServeCommand } from './commands/serve.js';
import { CliUsageError } from './usage-error.js';

const program = new Command('erx')
  .description('erx, the Swiss e-prescription service: server, client and tools')
  .version('0.1.0', '-V, --version')
  .showHelpAfterError('(run erx --help for usage)')
  .exitOverride();

registerServeCommand(program);
registerClientCommands(program);
registerCallCommands(program);
registerFeedCommands(program);
registerDocumentCommands(program);
registerKeyCommands(program);
registerAuditCommand(program);
registerMigrateCommand(program);
registerCatalogCommands(program);
registerReceiptCommands(program);
registerLogCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version exit 0; every other commander error is a usage error.
    return error.exitCode === 0 ? 0 : 2;
  }
  if (error instanceof CliUsageError) {
    process.stderr.write(`erx: ${error.message}\n`);
    return 2;
  }
  if (isErxError(error)) {
    process.stderr.write(`erx: ${error.message}\n`);
    for (const v of error.violations ?? [])
      process.stderr.write(`  ${v.path || '/'}: ${v.message}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`erx: ${message}\n`);
  return 1;
}
