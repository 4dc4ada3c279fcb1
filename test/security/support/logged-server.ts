/**
 * `erx serve` as a child process whose every byte of stdout and stderr is kept, from the first
 * one: the secrets suite greps all of it. (`startChildServer` reads the output only until it
 * listens, so what came before would be lost to a listener attached afterwards.)
 */
import { spawn } from 'node:child_process';

export interface LoggedServer {
  url: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and waits for the exit (pino flushes on the way out). */
  stop(): Promise<void>;
}

/** Starts `erx serve` with `env` added and resolves once it listens. */
export function startLoggedServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<LoggedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`erx serve did not start in time:\n${output}`));
    }, timeoutMs);
    const onData = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        url: match[1]!,
        output: () => output,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`erx serve exited with ${code}:\n${output}`));
    });
  });
}
