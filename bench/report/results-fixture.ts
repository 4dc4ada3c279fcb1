/** Made-up results of a bench run, for the tests of the reports. */
import type { Figure, FigureName } from '../figures.js';
import type { MachineFacts } from '../machine.js';
import { parseOptions } from '../options.js';
import { assembleResults } from './assemble.js';
import type { Ceilings, DatasetRun, Mixed, Results } from './results.js';

/** A figure of one pass. */
export function figure(rps: number, p99: number, cpuUs: number): Figure {
  return {
    rps,
    p50_ms: p99 / 4,
    p90_ms: p99 / 2,
    p99_ms: p99,
    max_ms: p99 * 2,
    peak_rss_mb: 150,
    foreign_cpu: 0,
    cpu_us_per_request: cpuUs,
    load_cpu_us_per_request: cpuUs / 4,
    ok: rps * 5,
    errors: 0,
    seconds: 5,
    status_counts: { '200': rps * 5 },
    pool_wraps: 0,
    passes: [rps],
  };
}

/** A data set's run with these figures. */
export function set(figures: Partial<Record<FigureName, Figure>>): DatasetRun {
  return {
    prescriptions: 1_000,
    events: 5_500,
    source: 'fresh',
    prepare_seconds: 5,
    load: { seconds: 5, events_per_s: 1_100, date: '2026-11-25T00:00:00Z' },
    erx_peak_rss_mb: 200,
    figures,
  };
}

const floor = { p50_ms: 5, p99_ms: 12, errors: 0, foreign_cpu: 0, passes: [] };
export const ceilings: Ceilings = {
  floor_http: { ...floor, rps: 40_000, cpu_us_per_request: 25 },
  floor_verify: { ...floor, rps: 5_000, cpu_us_per_request: 200 },
  floor_sign: {
    ops_per_s: 2_500,
    method: 'node-crypto-sync',
    threads: 2,
    variants: { 'node-crypto-sync': 2_500, webcrypto: 2_200 },
    single_thread: 1_250,
    cpu_us_per_signature: 800,
    foreign_cpu: 0,
    passes: [],
  },
};

/** The small set's figures. */
export const small = set({
  verify_anon: figure(10_000, 8, 100),
  verify_tx10: figure(8_000, 10, 125),
  dispense: figure(1_000, 100, 1_600),
  create: figure(1_100, 90, 1_500),
});
/** The scale set's figures. */
export const scale = set({
  verify_anon: figure(9_000, 9, 100),
  verify_tx10: figure(8_000, 12, 125),
  dispense: figure(850, 120, 1_800),
  create: figure(1_000, 135, 1_600),
  verify_cold: figure(300, 280, 5_000),
});

/** A mixed run. */
export function mixed(achieved: number, p99: number, errors: number): Mixed {
  return {
    offered: 2_400,
    achieved,
    p99_ms: p99,
    errors,
    p50_ms: 10,
    max_ms: 300,
    sent: 48_000,
    ok: 48_000 - errors,
    seconds: 20,
    max_send_lag_ms: 1,
    peak_rss_mb: 215,
    foreign_cpu: 0,
    cpu_us_per_request: 600,
    data_set: 'scale',
    kinds: {},
    status_counts: {},
  };
}

const MACHINE: MachineFacts = {
  cpu_model: 'Test CPU',
  cores: 2,
  memory_gib: 8,
  node: 'v20.0.0',
  openssl: '3.0.0',
  platform: 'linux x64',
  load_average_at_start: 0.1,
};

/** A whole quick run's results (by default of the working tree, with the figures above). */
export function results(
  over: { small?: DatasetRun; scale?: DatasetRun; mixed?: Mixed; commit?: string } = {},
): Results {
  const tree = '/tmp/erx-bench-build-test';
  return assembleResults({
    options: parseOptions(['--quick']),
    machine: MACHINE,
    run: { date: '2026-11-26T00:00:00.000Z', commit: 'f'.repeat(40), dirty: true },
    started: performance.now(),
    build: {
      main: `${tree}/src/cli/main.js`,
      directory: tree,
      warnings: undefined,
      commit: over.commit,
      tree,
    },
    ceilings,
    measured: {
      small: over.small ?? small,
      scale: over.scale ?? scale,
      mixed: over.mixed ?? mixed(2_400, 80, 0),
    },
  });
}
