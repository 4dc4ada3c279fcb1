/**
 * One bench run over one or more builds of erx: each build gets its own copy of the same data
 * sets, the ceilings are measured once for all, and every figure is measured for each build and
 * set in turns, so that a machine whose speed drifts moves every side of a comparison alike.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { measureCeilings, remeasureCeilings } from './ceilings.js';
import { copyCached } from './data/dataset.js';
import type { CachedSet, Dataset, DatasetSpec } from './data/dataset.js';
import { loadSample } from './data/document.js';
import type { ErxBuild } from './erx/build.js';
import { cachedSetOf } from './erx/revision-code.js';
import type { FigureName } from './figures.js';
import { machineFacts, runFacts } from './machine.js';
import type { BenchOptions } from './options.js';
import { assembleResults } from './report/assemble.js';
import type { BuildRun } from './report/assemble.js';
import type { Results } from './report/results.js';
import { openSet } from './sets.js';
import type { SetRunner } from './sets.js';
import { progress } from './support/log.js';

/** The figures measured on both sets (their ratios make the scale targets). */
const PAIRED_FIGURES: readonly FigureName[] = ['verify_anon', 'verify_tx10', 'dispense', 'create'];

/** A build of erx under test, named for progress lines and profile files (`old`, `new`). */
export interface LabelledBuild {
  readonly label: string;
  readonly build: ErxBuild;
}

/** The two data sets of a run: a baseline of 1,000 prescriptions and the scale set. */
export function specs(options: BenchOptions): { small: DatasetSpec; scale: DatasetSpec } {
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

/**
 * Each build's copy of both sets, all made before any erx starts, from sets cached by the first
 * build's code (`revision-code.ts`): copied, they are the same data for every build.
 */
async function prepareSets(
  options: BenchOptions,
  runDir: string,
  builds: readonly LabelledBuild[],
): Promise<{ small: Dataset; scale: Dataset }[]> {
  const compared = builds.length > 1;
  const cached = async (spec: DatasetSpec): Promise<{ set: CachedSet; started: number }> => {
    const started = performance.now();
    progress(
      `preparing the ${spec.name} set (${spec.prescriptions.toLocaleString('en')} prescriptions)`,
    );
    const set = await cachedSetOf(builds[0]!.build, spec, options.cacheDir, {
      fresh: options.fresh,
      onProgress: progress,
    });
    return { set, started };
  };
  const { small, scale } = specs(options);
  const sets = { small: await cached(small), scale: await cached(scale) };
  return builds.map(({ label }) => {
    const directory = compared ? join(runDir, label) : runDir;
    return {
      small: copyCached(sets.small.set, directory, sets.small.started),
      scale: copyCached(sets.scale.set, directory, sets.scale.started),
    };
  });
}

/** The runners in the order of pass `pass`: as given, then reversed, so no build always leads. */
function inTurn<T>(runners: readonly T[], pass: number): readonly T[] {
  return pass % 2 === 0 ? runners : [...runners].reverse();
}

/**
 * Measures every figure of each build in turns; answers their results, in the order given.
 * `started` is when the run began (`performance.now()`, before compiling).
 */
export async function measureBuilds(
  options: BenchOptions,
  runDir: string,
  builds: readonly LabelledBuild[],
  started: number,
): Promise<Results[]> {
  const machine = machineFacts();
  const run = runFacts();
  const sample = loadSample();
  const profileDir = options.profile ? join(options.resultsDir, 'profiles') : undefined;
  if (profileDir !== undefined) rmSync(profileDir, { recursive: true, force: true });
  const prepared = await prepareSets(options, runDir, builds);
  const floorInput = {
    linkKeysDir: join(prepared[0]!.small.dataDir, 'link-keys'),
    links: prepared[0]!.small.manifest.verifyLinks,
  };
  const firstCeilings = await measureCeilings(options, floorInput);
  const runners: { small: SetRunner; scale: SetRunner }[] = [];
  for (const [index, { label, build }] of builds.entries()) {
    const named = (set: string): string => (builds.length > 1 ? `${label}-${set}` : set);
    const base = { sample, options, build, profileDir };
    const sets = prepared[index]!;
    runners.push({
      small: await openSet({ ...base, name: named('small'), dataset: sets.small }),
      scale: await openSet({ ...base, name: named('scale'), dataset: sets.scale }),
    });
  }
  const measured: BuildRun[] = [];
  try {
    // Each pass of a figure on the small set, then at once on the scale set: the two sides of a
    // scale ratio (and the builds compared) are measured next to each other; each side is its
    // best pass (`bestPass` in figures.ts).
    for (const figure of PAIRED_FIGURES) {
      for (let pass = 0; pass < options.figurePasses; pass++) {
        for (const set of ['small', 'scale'] as const) {
          for (const runner of inTurn(runners, pass)) await runner[set].measure(figure);
        }
      }
    }
    // Its passes with and without streams take turns on the one erx (`streams-figure.ts`).
    for (const runner of runners) await runner.scale.measure('dispense_streams');
    // Its passes with the log off and on take turns, each on an erx of its own (`log-figure.ts`).
    for (const runner of runners) await runner.scale.measure('dispense_log');
    for (let pass = 0; pass < options.figurePasses; pass++) {
      for (const runner of inTurn(runners, pass)) await runner.scale.measure('verify_cold');
    }
    for (const runner of runners) await runner.scale.measure('mixed');
  } finally {
    for (const runner of runners) {
      const small = await runner.small.finish();
      const scale = await runner.scale.finish();
      if (scale.mixed !== undefined)
        measured.push({ small: small.run, scale: scale.run, mixed: scale.mixed });
    }
  }
  const ceilings = await remeasureCeilings(options, floorInput, firstCeilings);
  return builds.map(({ build }, index) =>
    assembleResults({
      options,
      machine,
      run,
      started,
      build,
      ceilings,
      measured: measured[index]!,
    }),
  );
}
