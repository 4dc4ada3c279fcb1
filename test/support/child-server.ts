/**
 * erx as a separate process (`erx serve`, started as the tests run: test/support/modules.ts), for
 * tests that kill it, restart it or run several instances: the banner's first line tells the
 * address it listens on.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { ERX_CLI } from './modules.js';

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** Everything it wrote to stdout and stderr so far, from its first byte. */
  output(): string;
  /** Sends SIGKILL and waits for the exit. */
  kill(): Promise<void>;
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Runs `erx <args>` to completion with `env` added to the environment. Asynchronous: a server in
 * this process answers meanwhile (a blocked event loop would delay its answers and its
 * connections' timers by as long as the command takes).
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...ERX_CLI, ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ status: 0, stdout, stderr });
        else if (typeof error.code === 'number') resolve({ status: error.code, stdout, stderr });
        // Killed (the timeout): no status, as spawnSync answered.
        else if (error.signal !== undefined && error.signal !== null) {
          resolve({ status: null, stdout, stderr });
        } else reject(error);
      },
    );
  });
}

/**
 * Starts `erx serve` on an ephemeral port and resolves once it listens; rejects when it exits
 * first. `timeoutMs` only guards against a hang: a start is slow on a busy machine (30 s were
 * exceeded while the crash suites ran beside others), and listening or exiting is what decides.
 */
export function startChildServer(
  env: Record<string, string>,
  timeoutMs = 300_000,
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...ERX_CLI, 'serve'], {
    // The metrics listener on an ephemeral port too: several servers run at once.
    env: {
      ...process.env,
      PORT: '0',
      ERX_LOG_LEVEL: 'error',
      ERX_METRICS_ADDR: '127.0.0.1:0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitExit = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  // Every byte is kept from the first one (the secrets suite greps all of it); the banner's first
  // line on stdout tells the address.
  let out = '';
  let output = '';
  let listening = false;
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`erx serve did not start in time:\n${output}`));
    }, timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (listening) return;
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        listening = true;
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          process: child,
          output: () => output,
          kill: () => waitExit('SIGKILL'),
          stop: () => waitExit('SIGTERM'),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`erx serve exited with ${code}:\n${output}`));
    });
  });
}
