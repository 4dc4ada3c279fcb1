/**
 * `npm run bench`: erx against the machine's own ceilings, measured in one run (issue 6).
 *
 *   npm run bench                  full: 1,000,000 prescriptions, 20 s per figure, 60 s mixed run
 *   npm run bench -- --quick       100,000 prescriptions, 5 s per figure, 20 s mixed run
 *   npm run bench -- --json        one JSON object on stdout (progress on stderr)
 *   npm run bench -- --profile     a CPU profile of erx per figure (results/profiles/)
 *
 * Load generation: autocannon (closed loop) and an open-loop scheduler on node:http, each in a
 * worker thread of this process; erx and the floor servers run in child processes. On a small
 * machine the load generator takes CPU from the server it drives; the ceilings are measured with
 * the same generator, connections and durations, so the ratios compare like with like.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureCeilings, remeasureCeilings } from './ceilings.js';
import { ensureCached, prepareDataset } from './data/dataset.js';
import type { DatasetSpec } from './data/dataset.js';
import { loadSample } from './data/document.js';
import { buildErx } from './erx/build.js';
import { machineFacts, runFacts } from './machine.js';
import { parseOptions, USAGE } from './options.js';
import type { BenchOptions } from './options.js';
import { notesFor } from './report/notes.js';
import { renderMarkdown } from './report/markdown.js';
import {
  computeCostRatios,
  computeRatios,
  computeScaleRatios,
  evaluateTargets,
} from './report/results.js';
import type { Results } from './report/results.js';
import { renderTable } from './report/table.js';
import { writeProfileSummary } from './report/profiles.js';
import { openSet } from './sets.js';
import type { FigureName } from './figures.js';
import { progress } from './support/log.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The figures measured on both sets (their ratios make the scale targets). */
const PAIRED_FIGURES: readonly FigureName[] = ['verify_anon', 'verify_tx10', 'dispense', 'create'];

function specs(options: BenchOptions): { small: DatasetSpec; scale: DatasetSpec } {
  return {
    small: {
      name: 'small',
      prescriptions: options.smallPrescriptions,
      verifySet: options.verifySet,
      coldLinks: 0,
      dispenseIds: options.smallPrescriptions,
    },
    scale: {
      name: 'scale',
      prescriptions: options.scalePrescriptions,
      verifySet: options.verifySet,
      coldLinks: options.coldLinks,
      dispenseIds: options.dispenseIds,
    },
  };
}

async function bench(options: BenchOptions, runDir: string): Promise<Results> {
  const started = performance.now();
  const machine = machineFacts();
  const run = runFacts();
  const sample = loadSample();
  const { small: smallSpec, scale: scaleSpec } = specs(options);
  const profileDir = options.profile ? join(options.resultsDir, 'profiles') : undefined;
  if (profileDir !== undefined) rmSync(profileDir, { recursive: true, force: true });

  progress('compiling erx');
  const build = buildErx(ROOT);
  try {
    progress(`loading the small set (${smallSpec.prescriptions} prescriptions)`);
    const small = await prepareDataset(smallSpec, { runDir, onProgress: progress });
    progress(
      `preparing the scale set (${scaleSpec.prescriptions.toLocaleString('en')} prescriptions)`,
    );
    const scale = await prepareDataset(scaleSpec, {
      runDir,
      cacheDir: options.cacheDir,
      fresh: options.fresh,
      onProgress: progress,
    });
    const floorInput = {
      linkKeysDir: join(small.dataDir, 'link-keys'),
      links: small.manifest.verifyLinks,
    };
    const firstCeilings = await measureCeilings(options, floorInput);
    const base = { sample, options, erxMain: build.main, profileDir };
    const smallSet = await openSet({ ...base, name: 'small', dataset: small });
    const scaleSet = await openSet({ ...base, name: 'scale', dataset: scale });
    let smallRun: Awaited<ReturnType<typeof smallSet.finish>>;
    let scaleRun: Awaited<ReturnType<typeof scaleSet.finish>>;
    try {
      // Each pass of a figure on the small set, then at once on the scale set: the two sides of
      // a scale ratio are measured next to each other, so a machine whose speed drifts (a busy
      // neighbour) moves both; each side is its best pass (`bestPass` in figures.ts).
      for (const figure of PAIRED_FIGURES) {
        for (let pass = 0; pass < options.figurePasses; pass++) {
          await smallSet.measure(figure);
          await scaleSet.measure(figure);
        }
      }
      // As many passes, on new chains each: its peak RSS is that of as many cold verifies.
      for (let pass = 0; pass < options.figurePasses; pass++) await scaleSet.measure('verify_cold');
      await scaleSet.measure('mixed');
    } finally {
      smallRun = await smallSet.finish();
      scaleRun = await scaleSet.finish();
    }
    const mixed = scaleRun.mixed!;
    const ceilings = await remeasureCeilings(options, floorInput, firstCeilings);
    const scaleRatios = computeScaleRatios(smallRun.run, scaleRun.run);
    const ratios = computeRatios(ceilings, smallRun.run, scaleRatios);
    const costRatios = computeCostRatios(ceilings, smallRun.run);
    const peak = Math.max(smallRun.run.erx_peak_rss_mb, scaleRun.run.erx_peak_rss_mb);
    const targets = evaluateTargets(ratios, mixed, peak);
    const sets = { small: smallRun.run, scale: scaleRun.run };
    return {
      ratios,
      cost_ratios: costRatios,
      mixed,
      peak_rss_mb: peak,
      targets,
      targets_met: targets.every((t) => t.met),
      mode: options.mode,
      machine,
      run: {
        ...run,
        seconds: (performance.now() - started) / 1000,
        load_average_at_end: loadavg()[0] ?? 0,
      },
      settings: {
        connections: options.connections,
        warmup_seconds: options.warmupSeconds,
        figure_seconds: options.figureSeconds,
        figure_passes: options.figurePasses,
        floor_sign_seconds: options.floorSignSeconds,
        mixed_rate: options.mixedRate,
        mixed_seconds: options.mixedSeconds,
        verify_set: options.verifySet,
        profiled: options.profile,
        erx: 'compiled with tsconfig.build.json, node <flags of its #! line> <main.js> serve, default configuration except ERX_RATE_LIMIT_SUBJECT=0 ERX_RATE_LIMIT_ANON=0',
        load_generator:
          'autocannon 9 (closed loop) / node:http open-loop scheduler, in a worker thread of the bench process',
      },
      ceilings,
      sets,
      scale_ratios: scaleRatios,
      notes: notesFor({ options, machine, build, sets, mixed, ceilings }),
    };
  } finally {
    rmSync(build.directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    process.stdout.write(USAGE);
    return;
  }
  const options = parseOptions(args);
  if (options.prepareOnly) {
    const set = await ensureCached(specs(options).scale, options.cacheDir, {
      fresh: options.fresh,
      onProgress: progress,
    });
    progress(
      `scale set ready (${set.source}) in ${set.directory}: ${set.manifest.prescriptions} prescriptions, ${set.manifest.events} events`,
    );
    return;
  }
  const runDir = mkdtempSync(join(tmpdir(), 'erx-bench-run-'));
  let results: Results;
  try {
    results = await bench(options, runDir);
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
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

await main();
