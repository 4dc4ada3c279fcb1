/**
 * erx is measured as operators run it (`npm start`: compiled JavaScript on plain node), not through
 * the TypeScript loader, which adds a loader thread (~30 MB RSS) and on-the-fly transforms. The
 * bench compiles the working tree, or a git revision's tree, into a temporary directory, so it
 * never touches `dist/`, and links the project's `node_modules` beside it for module resolution.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ErxBuild {
  /** The compiled CLI entry (`…/src/cli/main.js`). */
  readonly main: string;
  /** Everything the build wrote (its revision's tree too): removed after the run. */
  readonly directory: string;
  /** Compiler diagnostics when the tree did not type-check (the output is still emitted). */
  readonly warnings: string | undefined;
  /** The commit built, or undefined for the working tree. */
  readonly commit: string | undefined;
  /** The source tree compiled: the working tree, or the revision's, extracted. */
  readonly tree: string;
}

function run(command: string, args: string[], cwd: string, input?: Buffer): Buffer {
  const result = spawnSync(command, args, { cwd, input, maxBuffer: 2 ** 30 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed: ${String(result.stderr).trim()}`);
  }
  return result.stdout;
}

/** Writes the tree of `revision` into `target` (read-only for the repository); answers its commit. */
function extractRevision(root: string, revision: string, target: string): string {
  const commit = run('git', ['rev-parse', '--verify', `${revision}^{commit}`], root)
    .toString()
    .trim();
  mkdirSync(target);
  run('tar', ['-x', '-C', target], root, run('git', ['archive', '--format=tar', commit], root));
  symlinkSync(resolve(root, 'node_modules'), join(target, 'node_modules'), 'dir');
  return commit;
}

/**
 * Compiles `src/` with the project's build configuration into a fresh temporary directory: the
 * working tree's, or with `revision` that commit's (its tree extracted beside the output).
 */
export function buildErx(root: string, revision?: string): ErxBuild {
  const directory = mkdtempSync(join(tmpdir(), 'erx-bench-build-'));
  const tree = revision === undefined ? root : join(directory, 'tree');
  const commit = revision === undefined ? undefined : extractRevision(root, revision, tree);
  const tsc = resolve(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(
    process.execPath,
    [
      tsc,
      '-p',
      resolve(tree, 'tsconfig.build.json'),
      '--outDir',
      directory,
      '--sourceMap',
      'false',
    ],
    { cwd: tree, encoding: 'utf8' },
  );
  const main = join(directory, 'src', 'cli', 'main.js');
  if (!existsSync(main)) {
    throw new Error(`compiling erx failed:\n${result.stdout}${result.stderr}`);
  }
  symlinkSync(resolve(root, 'node_modules'), join(directory, 'node_modules'), 'dir');
  const diagnostics = `${result.stdout}${result.stderr}`.trim();
  const warnings = result.status === 0 ? undefined : diagnostics;
  return { main, directory, warnings, commit, tree };
}
