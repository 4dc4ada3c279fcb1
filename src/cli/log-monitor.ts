/**
 * One run of `erx log monitor`: read the state file, check the log, keep the new state and say
 * what was found; a log that misbehaved sets exit code 1 and says why, naming both sizes.
 */
import { httpLogClient } from '../monitor/log-client.js';
import { MonitorError } from '../monitor/monitor-error.js';
import { monitorLog } from '../monitor/monitor-log.js';
import type { MonitorRun } from '../monitor/monitor-log.js';
import { readMonitorState, writeMonitorState } from '../monitor/monitor-state.js';

/** The options of one run. */
export interface MonitorOnceOptions {
  /** The state file. */
  state: string;
  /** The pinned verifier key (`--log-key`). */
  logKey?: string;
}

/** Where a run writes (the process, or a test's buffers), and where it sets its exit code. */
export interface MonitorOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  exitCode?: number | string | undefined;
}

/** The line a successful run prints. */
function report(run: MonitorRun): string {
  const { size, root } = run.state;
  if (run.previous === undefined) {
    return `log verified: tree of size ${size}, root ${root} (first run)`;
  }
  if (run.previous.size === size) return `log unchanged: tree of size ${size}, root ${root}`;
  return `log consistent: tree of size ${run.previous.size} extended to ${size}, root ${root}`;
}

/** Checks the log at `url` once; true when it was consistent (and the state was kept). */
export async function monitorOnce(
  url: string,
  options: MonitorOnceOptions,
  out: MonitorOutput,
): Promise<boolean> {
  try {
    const state = readMonitorState(options.state);
    const run = await monitorLog({ client: httpLogClient(url), state, key: options.logKey });
    if (run.keySource === 'fetched') {
      out.stderr.write(
        `warning: trusting the key the log serves on first use: ${run.state.key}\n` +
          `         check it out of band (erx log key on the server) and pin it with --log-key\n`,
      );
    }
    writeMonitorState(options.state, run.state);
    out.stdout.write(`${report(run)}\n`);
    return true;
  } catch (error) {
    if (!(error instanceof MonitorError)) throw error;
    out.stderr.write(`erx log monitor: ${error.message}\n  ${String(error.detail)}\n`);
    out.exitCode = 1;
    return false;
  }
}
