/**
 * Command-line options of `npm run bench` and the two modes: full (the sizes and
 * durations) and --quick (100,000 prescriptions, 20 s mixed run, short figures; under 3 minutes
 * once the scale set is cached). Every figure is measured in two passes (one with --profile) unless
 * --passes says otherwise.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchOptions {
  readonly mode: 'full' | 'quick';
  /** Print exactly one JSON object on stdout instead of the table. */
  readonly json: boolean;
  /** Write a CPU profile of erx per figure into the results' `profiles/` folder. */
  readonly profile: boolean;
  /** Rebuild the cached data sets. */
  readonly fresh: boolean;
  /** Only build (or check) the cached data sets, measure nothing. */
  readonly prepareOnly: boolean;
  readonly cacheDir: string;
  readonly resultsDir: string;
  /** Prescriptions of the scale set. */
  readonly scalePrescriptions: number;
  /** Prescriptions of the baseline set. */
  readonly smallPrescriptions: number;
  /** Chains of 10 events, the verify working set, in both sets. */
  readonly verifySet: number;
  readonly coldLinks: number;
  readonly dispenseIds: number;
  readonly connections: number;
  readonly warmupSeconds: number;
  /** Measured seconds of one pass of a figure or of floor-http and floor-verify. */
  readonly figureSeconds: number;
  /**
   * Passes of each figure (each with its warm-up); the figure is its best pass, as a ceiling is
   * the best of its passes (`figures.ts`, {@link bestPass}).
   */
  readonly figurePasses: number;
  readonly floorSignSeconds: number;
  readonly mixedRate: number;
  readonly mixedSeconds: number;
  /** A git revision whose erx is measured against the working tree's, in turns. */
  readonly compare: string | undefined;
}

export const USAGE = `usage: npm run bench -- [--quick] [--json] [--profile] [--fresh] [--prepare-only] [--compare REV] [--passes N] [--cache-dir DIR] [--results-dir DIR] [--scale N]

  --quick        100,000 prescriptions, two 3 s passes per figure, 20 s mixed run
  --json         print one JSON object with every figure on stdout (progress stays on stderr)
  --profile      one erx process per figure, each with a V8 CPU profile in <results>/profiles
                 (one pass per figure, as long as the two of a run without --profile)
  --fresh        rebuild the cached data sets
  --prepare-only build (or check) the cached data sets and stop
  --compare REV  measure the erx of git revision REV and the working tree's in turns, on copies of
                 the same data sets with the same ceilings; writes <results>/compare.md and .json
  --passes N     passes per figure (default 2; 1 with --profile)
  --cache-dir    where data sets are cached (default: $TMPDIR/erx-bench-cache; those made by a
                 revision's code for --compare in rev-<commit>/ inside it)
  --results-dir  where latest.* or compare.* go (default: bench/results)
  --scale N      prescriptions of the scale set (default 1,000,000; 100,000 with --quick)
`;

function valueOf(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

const KNOWN = new Set([
  '--quick',
  '--json',
  '--profile',
  '--fresh',
  '--prepare-only',
  '--cache-dir',
  '--results-dir',
  '--scale',
  '--compare',
  '--passes',
  '--help',
]);

/** Reads the options from `args` (process.argv without node and the script). */
export function parseOptions(args: string[]): BenchOptions {
  for (const arg of args) {
    if (arg.startsWith('--') && !KNOWN.has(arg)) throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  const quick = args.includes('--quick');
  const profile = args.includes('--profile');
  const scale = valueOf(args, '--scale');
  const scalePrescriptions = scale === undefined ? (quick ? 100_000 : 1_000_000) : Number(scale);
  if (!Number.isSafeInteger(scalePrescriptions) || scalePrescriptions < 2_000) {
    throw new Error('--scale must be a whole number of at least 2,000');
  }
  const passes = Number(valueOf(args, '--passes') ?? (profile ? 1 : 2));
  if (!Number.isSafeInteger(passes) || passes < 1) {
    throw new Error('--passes must be a whole number of at least 1');
  }
  return {
    mode: quick ? 'quick' : 'full',
    json: args.includes('--json'),
    profile,
    fresh: args.includes('--fresh'),
    prepareOnly: args.includes('--prepare-only'),
    cacheDir: valueOf(args, '--cache-dir') ?? join(tmpdir(), 'erx-bench-cache'),
    resultsDir: valueOf(args, '--results-dir') ?? new URL('./results', import.meta.url).pathname,
    scalePrescriptions,
    smallPrescriptions: 1_000,
    verifySet: 100,
    // Primed once, then every cold pass after a restart goes through them again (sets.ts).
    coldLinks: Math.min(quick ? 16_000 : 60_000, Math.floor(scalePrescriptions / 5)),
    dispenseIds: quick ? 40_000 : 120_000,
    connections: 32,
    warmupSeconds: quick ? 1 : 3,
    // A profile is one process per pass: with --profile a figure is one pass as long as two.
    figureSeconds: (quick ? 3 : 10) * (profile ? 2 : 1),
    figurePasses: passes,
    floorSignSeconds: quick ? 2 : 5,
    mixedRate: 2_400,
    mixedSeconds: quick ? 20 : 60,
    compare: valueOf(args, '--compare'),
  };
}
