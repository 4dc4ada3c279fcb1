/**
 * Run as a child process (test/support/modules.ts `nodeArgs`): imports the modules named on the command line and
 * prints, as one JSON line, what runs in this process before and after: its OS threads (Linux,
 * `/proc/self/task`) and Node's active resources. Then, as a control that the count sees threads,
 * it starts a signing pool of two threads, counts again and closes it, so the process can end by
 * itself.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What runs in this process now. */
export interface Running {
  /** OS threads (Linux; -1 elsewhere). */
  readonly threads: number;
  readonly resources: readonly string[];
}

function running(): Running {
  const threads = existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : -1;
  return { threads, resources: [...process.getActiveResourcesInfo()].sort() };
}

/** Lets pending callbacks (a finished file read, say) leave the resource list. */
const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 50));

// Warm up what any import may start once per process whatever the module (libuv's thread pool,
// tsx's compiler, the standard streams, opened on first use), so that the counts compare the
// modules only.
await readFile(fileURLToPath(import.meta.url));
void [process.stdout, process.stderr];
await import('./thread-niceness.js');
await settle();

const before = running();
for (const module of process.argv.slice(2)) await import(pathToFileURL(resolve(module)).href);
await settle();
const after = running();

const { SignPool } = await import('../../src/pki/sign-pool.js');
const pool = new SignPool(2);
pool.start();
const withPool = running();
await pool.close();

process.stdout.write(`${JSON.stringify({ before, after, withPool })}\n`);
