/**
 * `npm run bench -- --compare REV`: the erx of git revision REV and the working tree's, both
 * compiled as the bench compiles erx, measured in one run with the builds taking turns at every
 * figure, each on its own copy of the same data sets and against the same ceilings.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildErx } from './erx/build.js';
import type { ErxBuild } from './erx/build.js';
import type { BenchOptions } from './options.js';
import { compareResults, renderComparison } from './report/compare.js';
import type { Comparison } from './report/compare.js';
import { progress } from './support/log.js';
import { measureBuilds } from './turns.js';

/** Measures the erx of `revision` ("old") and of the working tree at `root` ("new") in turns. */
export async function compareRevision(
  root: string,
  options: BenchOptions,
  revision: string,
  runDir: string,
): Promise<Comparison> {
  const started = performance.now();
  const builds: ErxBuild[] = [];
  try {
    progress(`compiling erx at ${revision}`);
    builds.push(buildErx(root, revision));
    progress('compiling erx from the working tree');
    builds.push(buildErx(root));
    const [old, next] = await measureBuilds(
      options,
      runDir,
      [
        { label: 'old', build: builds[0]! },
        { label: 'new', build: builds[1]! },
      ],
      started,
    );
    return compareResults(old!, next!, revision);
  } finally {
    for (const build of builds) rmSync(build.directory, { recursive: true, force: true });
  }
}

/** Writes `compare.json` and `compare.md` and prints the comparison (or its JSON with --json). */
export function writeComparison(options: BenchOptions, comparison: Comparison): void {
  mkdirSync(options.resultsDir, { recursive: true });
  const markdown = renderComparison(comparison);
  writeFileSync(
    join(options.resultsDir, 'compare.json'),
    `${JSON.stringify(comparison, null, 2)}\n`,
  );
  writeFileSync(join(options.resultsDir, 'compare.md'), markdown);
  process.stdout.write(options.json ? `${JSON.stringify(comparison)}\n` : markdown);
}
