/**
 * `erx log key`: the verifier key of the transparency log key in the data directory (the serving
 * instance's); `erx log monitor URL`: checks a running erx's log against the last checkpoint it
 * verified, kept in a state file (exit 1 on a fork, a rollback or a rewritten leaf, naming sizes).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { LOG_KEY_FILE, openLogIdentity } from '../../server/log-key.js';
import { DEFAULT_MAX_LEAVES } from '../../monitor/monitor-log.js';
import { monitorOnce } from '../log-monitor.js';
import { CliUsageError } from '../usage-error.js';

interface MonitorOptions {
  state: string;
  logKey?: string;
  follow?: boolean;
  interval: number;
  maxLeaves: number;
}

const DEFAULT_STATE = 'erx-log-monitor.json';
const MAX_INTERVAL_S = 86_400;

/** Parses `--interval` as whole seconds from 1 to a day. */
function intervalOption(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || String(n) !== value || n < 1 || n > MAX_INTERVAL_S) {
    throw new CliUsageError(
      `--interval ${value}: expected whole seconds from 1 to ${MAX_INTERVAL_S}`,
    );
  }
  return n;
}

/** Parses `--max-leaves` as a whole number from one tile's 256 leaves to 2^32. */
function maxLeavesOption(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || String(n) !== value || n < 256 || n > 2 ** 32) {
    throw new CliUsageError(`--max-leaves ${value}: expected a whole number from 256 to 2^32`);
  }
  return n;
}

/** Registers `log key` and `log monitor` on `program`. */
export function registerLogCommands(program: Command): void {
  const log = program.command('log').description('the transparency log of the events');

  log
    .command('key')
    .description("print the verifier key of the data directory's transparency log key")
    .action(() => {
      const config = loadConfig();
      if (!existsSync(join(config.dataDir, LOG_KEY_FILE))) {
        throw new Error(`no ${LOG_KEY_FILE} in ${config.dataDir} (erx serve makes it)`);
      }
      process.stdout.write(`${openLogIdentity(config.dataDir, config.logOrigin).verifierKey}\n`);
    });

  log
    .command('monitor')
    .description(
      'check that the log at URL only grew since the last checkpoint verified (kept in the ' +
        'state file): exit 1 on a fork, a rollback or a rewritten leaf',
    )
    .argument('<url>', 'the erx base URL (its log is at <url>/log/)')
    .option('--state <file>', 'state file: the key and last verified checkpoint', DEFAULT_STATE)
    .option('--log-key <vkey>', "the log's verifier key (erx log key on the server)")
    .option('--follow', 'keep checking every --interval seconds until a failure or a signal')
    .option('--interval <seconds>', 'seconds between checks with --follow', intervalOption, 60)
    .option(
      '--max-leaves <n>',
      'most leaves whose entries one run checks; the next run goes on from there',
      maxLeavesOption,
      DEFAULT_MAX_LEAVES,
    )
    .action(async (url: string, options: MonitorOptions) => {
      if (!URL.canParse(url)) throw new CliUsageError(`${url}: not a URL`);
      const stop = new AbortController();
      // A signal ends the run under way too, not only the wait between runs.
      const onSignal = (signal: NodeJS.Signals): void => stop.abort(signal);
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        while (
          (await monitorOnce(url, { ...options, signal: stop.signal }, process)) &&
          options.follow &&
          !stop.signal.aborted
        ) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.interval * 1000);
            stop.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              resolve();
            });
          });
          if (stop.signal.aborted) break;
        }
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    });
}
