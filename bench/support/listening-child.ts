/**
 * A server in a child process that prints `listening on http://…` once it accepts connections:
 * erx itself (its banner) and the floor servers. Its output is drained and dropped, so a server
 * that logs every request (erx at its default level) never blocks on a full pipe.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface ListeningChild {
  readonly url: string;
  readonly pid: number;
  /** Sends SIGTERM and waits for the exit (a CPU profile is written on the way out). */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Arguments to `node` (flags, script, script arguments). */
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

const LISTENING = /listening on (http:\/\/\S+)/;

function waitExit(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return exited.finally(() => clearTimeout(force));
}

/** Starts `node <args>` and resolves once it prints the address it listens on. */
export function spawnListening(options: SpawnOptions): Promise<ListeningChild> {
  const child = spawn(process.execPath, [...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let head = '';
    let errors = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.args.join(' ')} did not start in time:\n${head}\n${errors}`));
    }, options.timeoutMs ?? 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      if (errors.length < 20_000) errors += chunk.toString();
    });
    const onData = (chunk: Buffer): void => {
      head += chunk.toString();
      const match = LISTENING.exec(head);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({ url: match[1]!, pid: child.pid!, stop: () => waitExit(child, exited) });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`${options.args.join(' ')} exited (${code ?? signal}):\n${head}\n${errors}`),
      );
    });
  });
}
