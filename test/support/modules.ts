/**
 * Where the code under test lives, for tests that read the sources or start a module in a process
 * of their own. `npm test` runs the tests from their compiled copy in `.test-build/`
 * (scripts/build-tests.mjs); a test file run by hand through tsx runs from the sources. A child
 * process starts the same way as its test, so it never runs other code than the test.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when the tests run from their compiled copy. */
export const COMPILED = import.meta.url.endsWith('.js');

/** The root the running modules belong to: `.test-build/` or the repository. */
const MODULES_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The repository (its sources, docs and fixtures), also when the tests run compiled. */
export const REPO_ROOT = COMPILED ? join(MODULES_ROOT, '..') : MODULES_ROOT;

/** Node's options that load a module the way the tests' own modules are loaded. */
export const LOADER: readonly string[] = COMPILED ? ['--enable-source-maps'] : ['--import', 'tsx'];

/** The path of the module `source` (a `.ts` path relative to the repository) as the tests run it. */
export function modulePath(source: string): string {
  return COMPILED ? join(MODULES_ROOT, source.replace(/\.tsx?$/, '.js')) : join(REPO_ROOT, source);
}

/** Node's arguments that run the module `source` (a `.ts` path relative to the repository). */
export function nodeArgs(source: string): string[] {
  return [...LOADER, modulePath(source)];
}

/** Newest modification time of any file below `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Node's arguments that run `erx` (append its own). Compiled with the tests, or, for a test run
 * through tsx, the built CLI when the build is newer than every source file (it starts in about
 * half the time tsx needs), else the sources through tsx, so a test never runs stale code.
 */
function cliArgs(): string[] {
  if (COMPILED) return nodeArgs('src/cli/main.ts');
  const built = join(REPO_ROOT, 'dist/src/cli/main.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(REPO_ROOT, 'src'))) {
    return [built];
  }
  return nodeArgs('src/cli/main.ts');
}

export const ERX_CLI: readonly string[] = cliArgs();
