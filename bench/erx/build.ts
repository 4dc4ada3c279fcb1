/**
 * erx is measured as operators run it (`npm start`: compiled JavaScript on plain node), not through
 * the TypeScript loader, which adds a loader thread (~30 MB RSS) and on-the-fly transforms. The
 * bench compiles the working tree into a temporary directory, so it never touches `dist/`, and
 * links the project's `node_modules` beside it for module resolution.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ErxBuild {
  /** The compiled CLI entry (`…/src/cli/main.js`). */
  readonly main: string;
  readonly directory: string;
  /** Compiler diagnostics when the tree did not type-check (the output is still emitted). */
  readonly warnings: string | undefined;
}

/** Compiles `src/` with the project's build configuration into a fresh temporary directory. */
export function buildErx(root: string): ErxBuild {
  const directory = mkdtempSync(join(tmpdir(), 'erx-bench-build-'));
  const tsc = resolve(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(
    process.execPath,
    [
      tsc,
      '-p',
      resolve(root, 'tsconfig.build.json'),
      '--outDir',
      directory,
      '--sourceMap',
      'false',
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const main = join(directory, 'src', 'cli', 'main.js');
  if (!existsSync(main)) {
    throw new Error(`compiling erx failed:\n${result.stdout}${result.stderr}`);
  }
  symlinkSync(resolve(root, 'node_modules'), join(directory, 'node_modules'), 'dir');
  const diagnostics = `${result.stdout}${result.stderr}`.trim();
  return { main, directory, warnings: result.status === 0 ? undefined : diagnostics };
}
