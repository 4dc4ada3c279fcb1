/**
 * Runs in a child process for `revision-code.ts`: calls the bench code of a revision's extracted
 * tree, so that what it writes (a data set, the bench's clients) is written by that revision's
 * own code. Answers one JSON object on stdout; progress goes to stderr.
 *
 *   node --import tsx revision-call.ts <tree> dataset <spec as JSON> <cache dir> [fresh]
 *   node --import tsx revision-call.ts <tree> clients <data dir>
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ensureCached } from '../data/dataset.js';
import type { registerClients } from './clients.js';

const [tree, call, ...args] = process.argv.slice(2);

async function load<T>(path: string): Promise<T> {
  return (await import(pathToFileURL(join(tree!, path)).href)) as T;
}

async function answer(): Promise<unknown> {
  if (call === 'dataset') {
    const code = await load<{ ensureCached: typeof ensureCached }>('bench/data/dataset.ts');
    const set = await code.ensureCached(JSON.parse(args[0]!), args[1]!, {
      fresh: args[2] === 'fresh',
      onProgress: (message) => process.stderr.write(`${message}\n`),
    });
    return { directory: set.directory, source: set.source };
  }
  if (call === 'clients') {
    const code = await load<{ registerClients: typeof registerClients }>('bench/erx/clients.ts');
    return code.registerClients(args[0]!);
  }
  throw new Error(`unknown call ${String(call)}`);
}

// Exits once the answer is written: a revision may leave a thread pool or a timer running.
process.stdout.write(`${JSON.stringify(await answer())}\n`, () => process.exit(0));
