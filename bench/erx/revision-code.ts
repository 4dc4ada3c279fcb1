/**
 * Each build's own code for what it writes into a data directory. Builds compared run on copies
 * of the same data sets, written and checked by the first (older) build's code: a newer erx
 * migrates its copy when it opens it, as an upgrade would, where an older one cannot use a newer
 * schema. The working tree's code runs in this process; a revision's in a child process in its
 * extracted tree (`revision-call.ts`), with its cached sets in a folder of their own.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCached } from '../data/dataset.js';
import type { CachedSet, DatasetSpec, Manifest } from '../data/dataset.js';
import type { ErxBuild } from './build.js';
import { registerClients } from './clients.js';
import type { Credentials } from './clients.js';

const CALL = fileURLToPath(new URL('./revision-call.ts', import.meta.url));

/** Runs `revision-call.ts` in `tree` with `args`; answers its JSON. */
function callRevision<T>(tree: string, args: readonly string[]): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', CALL, tree, ...args], {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out) as T);
      else
        reject(new Error(`${tree}: ${args[0]} failed (exit ${code}); its bench code may differ`));
    });
  });
}

/** The cached set of `spec` made (or checked) by `build`'s code. */
export async function cachedSetOf(
  build: ErxBuild,
  spec: DatasetSpec,
  cacheDir: string,
  options: { fresh: boolean; onProgress: (message: string) => void },
): Promise<CachedSet> {
  if (build.commit === undefined) return ensureCached(spec, cacheDir, options);
  const revisionCache = join(cacheDir, `rev-${build.commit.slice(0, 12)}`);
  const answer = await callRevision<Omit<CachedSet, 'manifest'>>(build.tree, [
    'dataset',
    JSON.stringify(spec),
    revisionCache,
    options.fresh ? 'fresh' : '',
  ]);
  const manifest = JSON.parse(readFileSync(join(answer.directory, 'manifest.json'), 'utf8'));
  return { ...answer, manifest: manifest as Manifest };
}

/** Registers the bench's prescriber and pharmacist in `dataDir` with `build`'s code. */
export function registerClientsOf(build: ErxBuild, dataDir: string): Promise<Credentials> {
  if (build.commit === undefined) return registerClients(dataDir);
  return callRevision<Credentials>(build.tree, ['clients', dataDir]);
}
