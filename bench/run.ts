/**
 * `npm run bench`: erx against the machine's own ceilings, measured in one run.
 *
 *   npm run bench                  full: 1,000,000 prescriptions, two 10 s passes per figure
 *   npm run bench -- --quick       100,000 prescriptions, two 3 s passes per figure
 *   npm run bench -- --json        one JSON object on stdout (progress on stderr)
 *   npm run bench -- --profile     a CPU profile of erx per figure (results/profiles/)
 *   npm run bench -- --compare REV that revision's erx and the working tree's, in turns
 *
 * Load generation: autocannon (closed loop) and an open-loop scheduler on node:http, each in a
 * worker thread of this process; erx and the floor servers run in child processes. On a small
 * machine the load generator takes CPU from the server it drives; the ceilings are measured with
 * the same generator, connections and durations, so the ratios compare like with like.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareRevision, writeComparison } from './compare.js';
import { ensureCached } from './data/dataset.js';
import { buildErx } from './erx/build.js';
import { parseOptions, USAGE } from './options.js';
import type { BenchOptions } from './options.js';
import { renderMarkdown } from './report/markdown.js';
import type { Results } from './report/results.js';
import { renderTable } from './report/table.js';
import { writeProfileSummary } from './report/profiles.js';
import { measureBuilds, specs } from './turns.js';
import { progress } from './support/log.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The working tree's erx measured against the ceilings. */
async function bench(options: BenchOptions, runDir: string): Promise<Results> {
  const started = performance.now();
  progress('compiling erx');
  const build = buildErx(ROOT);
  try {
    const [results] = await measureBuilds(options, runDir, [{ label: 'tree', build }], started);
    return results!;
  } finally {
    rmSync(build.directory, { recursive: true, force: true });
  }
}

/** Writes `latest.*` (or `profiled.*`) and prints the table or the JSON object. */
function report(options: BenchOptions, results: Results): void {
  mkdirSync(options.resultsDir, { recursive: true });
  // A profiled run is slowed by the profiler: it never replaces the reference results.
  const stem = options.profile ? 'profiled' : 'latest';
  writeFileSync(join(options.resultsDir, `${stem}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(options.resultsDir, `${stem}.md`), renderMarkdown(results));
  if (options.profile)
    writeProfileSummary(
      join(options.resultsDir, 'profiles'),
      join(options.resultsDir, 'profile-summary.md'),
    );
  process.stdout.write(options.json ? `${JSON.stringify(results)}\n` : `${renderTable(results)}\n`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    process.stdout.write(USAGE);
    return;
  }
  const options = parseOptions(args);
  if (options.prepareOnly) {
    for (const spec of Object.values(specs(options))) {
      const set = await ensureCached(spec, options.cacheDir, {
        fresh: options.fresh,
        onProgress: progress,
      });
      progress(
        `${spec.name} set ready (${set.source}) in ${set.directory}: ${set.manifest.prescriptions} prescriptions, ${set.manifest.events} events`,
      );
    }
    return;
  }
  const runDir = mkdtempSync(join(tmpdir(), 'erx-bench-run-'));
  try {
    if (options.compare === undefined) {
      report(options, await bench(options, runDir));
    } else {
      const comparison = await compareRevision(ROOT, options, options.compare, runDir);
      writeComparison(options, comparison);
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
