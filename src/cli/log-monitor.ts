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
  /** Most leaves whose entries one run checks (`--max-leaves`). */
  maxLeaves?: number;
  /** SIGINT or SIGTERM: ends the run at once, the state file left as it was. */
  signal?: AbortSignal;
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

/** The line of a run that stopped at its work bound. */
function pendingReport(run: MonitorRun): string {
  const checked = run.state.checked ?? run.state.size;
  return (
    `entries checked up to leaf ${checked} of ${run.state.size}: this run's bound; ` +
    `the next run goes on from there (${run.pending} left)`
  );
}

/** The exit code of a run a signal stopped: 128 + the signal's number, as a shell reports it. */
function signalExitCode(signal: AbortSignal | undefined): number {
  return signal?.reason === 'SIGINT' ? 130 : signal?.reason === 'SIGTERM' ? 143 : 1;
}

/** Checks the log at `url` once; true when it was consistent (and the state was kept). */
export async function monitorOnce(
  url: string,
  options: MonitorOnceOptions,
  out: MonitorOutput,
): Promise<boolean> {
  try {
    const state = readMonitorState(options.state);
    const { signal } = options;
    const run = await monitorLog({
      client: httpLogClient(url, { signal }),
      state,
      key: options.logKey,
      maxLeaves: options.maxLeaves,
      signal,
    });
    if (run.keySource === 'fetched') {
      out.stderr.write(
        `warning: trusting the key the log serves on first use: ${run.state.key}\n` +
          `         check it out of band (erx log key on the server) and pin it with --log-key\n`,
      );
    }
    writeMonitorState(options.state, run.state);
    out.stdout.write(`${report(run)}\n`);
    if (run.pending > 0) out.stdout.write(`${pendingReport(run)}\n`);
    return true;
  } catch (error) {
    if (!(error instanceof MonitorError)) throw error;
    out.stderr.write(`erx log monitor: ${error.message}\n  ${String(error.detail)}\n`);
    out.exitCode = error.reason === 'interrupted' ? signalExitCode(options.signal) : 1;
    return false;
  }
}
