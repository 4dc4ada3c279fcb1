/** One build's {@link Results}: its figures with the ceilings of the run they were measured in. */
import { loadavg } from 'node:os';
import type { ErxBuild } from '../erx/build.js';
import type { MachineFacts, RunFacts } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { notesFor } from './notes.js';
import {
  computeCostRatios,
  computeRatios,
  computeScaleRatios,
  evaluateTargets,
} from './results.js';
import type { Ceilings, DatasetRun, Mixed, Results } from './results.js';

/** What one build of erx measured on its two sets. */
export interface BuildRun {
  readonly small: DatasetRun;
  readonly scale: DatasetRun;
  readonly mixed: Mixed;
}

export interface AssembleInput {
  readonly options: BenchOptions;
  readonly machine: MachineFacts;
  readonly run: RunFacts;
  /** `performance.now()` when the run started. */
  readonly started: number;
  readonly build: ErxBuild;
  readonly ceilings: Ceilings;
  readonly measured: BuildRun;
}

/** The ratios, targets, settings and notes of one build's figures. */
export function assembleResults(input: AssembleInput): Results {
  const { options, machine, build, ceilings, measured } = input;
  const { small, scale, mixed } = measured;
  const scaleRatios = computeScaleRatios(small, scale);
  const ratios = computeRatios(ceilings, small, scale, scaleRatios);
  const peak = Math.max(small.erx_peak_rss_mb, scale.erx_peak_rss_mb);
  const targets = evaluateTargets(ratios, mixed, peak);
  const sets = { small, scale };
  // A build of a revision is that commit as it is; the working tree's is HEAD and its changes.
  const commit = build.commit === undefined ? {} : { commit: build.commit, dirty: false };
  return {
    ratios,
    cost_ratios: computeCostRatios(ceilings, small),
    mixed,
    peak_rss_mb: peak,
    targets,
    targets_met: targets.every((t) => t.met),
    mode: options.mode,
    machine,
    run: {
      ...input.run,
      ...commit,
      seconds: (performance.now() - input.started) / 1000,
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
      cold_links: options.coldLinks,
      profiled: options.profile,
      erx: 'compiled with tsconfig.build.json, node <flags of its #! line> <main.js> serve, default configuration except ERX_RATE_LIMIT_SUBJECT=0 ERX_RATE_LIMIT_ANON=0 ERX_MAX_CONNECTIONS_PER_ADDRESS=0',
      load_generator:
        'autocannon 9 (closed loop) / node:http open-loop scheduler, in a worker thread of the bench process',
    },
    ceilings,
    sets,
    scale_ratios: scaleRatios,
    notes: notesFor({ options, machine, build, sets, mixed, ceilings }),
  };
}
