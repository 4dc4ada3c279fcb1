/**
 * The result of a bench run: every figure, the ceilings, the ratios and the targets of the issue.
 * `ratios`, `mixed` and `peak_rss_mb` keep the shape tools rely on; everything else is added.
 */
import type { Figure, FigureName } from '../figures.js';
import type { SignFloor } from '../floors/sign.js';
import type { OpenLoopResult } from '../load/open-loop-protocol.js';
import type { MachineFacts, RunFacts } from '../machine.js';
import type { LogCatchUp } from '../erx/log-catch-up.js';
import type { LogFigure } from '../log-figure.js';
import { LOG_TARGET } from '../log-figure.js';
import type { StreamsFigure } from '../streams-figure.js';
import { EVENT_STREAMS, STREAMS_TARGET } from '../streams-figure.js';

export interface FloorFigure {
  /** The best of the passes (the stricter ceiling for the ratios). */
  readonly rps: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly errors: number;
  /** Share of the machine other processes used during the best pass. */
  readonly foreign_cpu: number;
  /** Server CPU time per request during the best pass. */
  readonly cpu_us_per_request: number;
  /** Requests/s of each pass (before the figures and after them). */
  readonly passes: number[];
}

export interface Ceilings {
  readonly floor_http: FloorFigure;
  readonly floor_verify: FloorFigure;
  readonly floor_sign: {
    readonly ops_per_s: number;
    readonly method: SignFloor['method'];
    readonly threads: number;
    readonly variants: SignFloor['variants'];
    readonly single_thread: number;
    /** CPU time per signature (node:crypto, one thread). */
    readonly cpu_us_per_signature: number;
    readonly foreign_cpu: number;
    readonly passes: number[];
  };
}

export interface DatasetRun {
  readonly prescriptions: number;
  readonly events: number;
  /** `cache`: a scale set built by an earlier run, copied and checked. */
  readonly source: 'fresh' | 'cache';
  readonly prepare_seconds: number;
  /** The loader's own figures when it built the set (maybe in an earlier run). */
  readonly load: { readonly seconds: number; readonly events_per_s: number; readonly date: string };
  /** Lifetime peak RSS of each erx process on this set, MB. */
  readonly erx_peak_rss_mb: number;
  readonly figures: Partial<Record<FigureName, Figure>>;
  /** Dispense without and with event streams open, in turns (the scale set; absent before). */
  readonly streams?: StreamsFigure;
  /** Dispense with the transparency log on and off, in turns (the scale set; absent before). */
  readonly log?: LogFigure;
  /** How long the log took, at erx's first start on the set, to take in the loaded events. */
  readonly log_catch_up?: LogCatchUp;
}

export interface Mixed {
  readonly offered: number;
  readonly achieved: number;
  readonly p99_ms: number;
  readonly errors: number;
  readonly p50_ms: number;
  readonly max_ms: number;
  readonly sent: number;
  readonly ok: number;
  readonly seconds: number;
  readonly max_send_lag_ms: number;
  readonly peak_rss_mb: number;
  readonly foreign_cpu: number;
  /** erx CPU time per call sent. */
  readonly cpu_us_per_request: number;
  readonly data_set: string;
  readonly kinds: OpenLoopResult['kinds'];
  readonly status_counts: Record<string, number>;
}

export interface Ratios {
  readonly verify_anon: number;
  readonly verify_tx10: number;
  readonly dispense: number;
  readonly create: number;
  readonly scale_throughput_min: number;
  readonly scale_p99_max: number;
  /**
   * Verify of chains never verified since erx restarted ÷ verify with transactions of chains
   * already verified, the higher of the two sets'.
   */
  readonly verify_cold_to_warm: number;
  /** Dispense with 200 event streams open ÷ without, on the scale set (absent if not measured). */
  readonly dispense_with_streams?: number;
  /** Dispense with the transparency log on ÷ off, on the scale set (absent if not measured). */
  readonly dispense_log_on_off?: number;
}

/**
 * The same ratios in CPU time instead of throughput: ceiling CPU per operation ÷ erx CPU per
 * request. A busy neighbour lowers throughput but hardly CPU time, so these are the cross-check
 * of a run on a shared machine (they leave out the load generator's share of the cores).
 */
export interface CostRatios {
  readonly verify_anon: number;
  readonly verify_tx10: number;
  readonly dispense: number;
  readonly create: number;
}

export interface Target {
  readonly name: string;
  readonly value: number;
  readonly limit: number;
  readonly comparison: '>=' | '<=' | '<' | '=';
  readonly met: boolean;
}

export interface Results {
  readonly ratios: Ratios;
  readonly cost_ratios: CostRatios;
  readonly mixed: Mixed;
  readonly peak_rss_mb: number;
  readonly targets: Target[];
  readonly targets_met: boolean;
  readonly mode: 'full' | 'quick';
  readonly machine: MachineFacts;
  readonly run: RunFacts & { readonly seconds: number; readonly load_average_at_end: number };
  readonly settings: Record<string, number | string | boolean>;
  readonly ceilings: Ceilings;
  readonly sets: { readonly small: DatasetRun; readonly scale: DatasetRun };
  /** Per figure: scale throughput ÷ small throughput, scale p99 ÷ small p99. */
  readonly scale_ratios: Partial<Record<FigureName, { throughput: number; p99: number }>>;
  readonly notes: string[];
}

/** The figures compared between the two sets (the cold verify exists on the scale set only). */
export const SCALED_FIGURES: readonly FigureName[] = [
  'verify_anon',
  'verify_tx10',
  'dispense',
  'create',
];

function rpsOf(set: DatasetRun, name: FigureName): number {
  return set.figures[name]?.rps ?? 0;
}

/** The four throughput ratios to their ceilings, the scale extremes and cold ÷ warm. */
export function computeRatios(
  ceilings: Ceilings,
  small: DatasetRun,
  scale: DatasetRun,
  scaleRatios: Results['scale_ratios'],
): Ratios {
  const scaled = Object.values(scaleRatios);
  const warm = Math.max(rpsOf(small, 'verify_tx10'), rpsOf(scale, 'verify_tx10'));
  return {
    verify_anon: rpsOf(small, 'verify_anon') / ceilings.floor_verify.rps,
    verify_tx10: rpsOf(small, 'verify_tx10') / ceilings.floor_verify.rps,
    dispense: rpsOf(small, 'dispense') / ceilings.floor_sign.ops_per_s,
    create: rpsOf(small, 'create') / ceilings.floor_verify.rps,
    scale_throughput_min: Math.min(...scaled.map((r) => r.throughput)),
    scale_p99_max: Math.max(...scaled.map((r) => r.p99)),
    verify_cold_to_warm: rpsOf(scale, 'verify_cold') / warm,
    ...(scale.streams === undefined ? {} : { dispense_with_streams: scale.streams.ratio }),
    ...(scale.log === undefined ? {} : { dispense_log_on_off: scale.log.ratio }),
  };
}

/** Ceiling CPU per operation ÷ erx CPU per request, on the small set. */
export function computeCostRatios(ceilings: Ceilings, small: DatasetRun): CostRatios {
  const cost = (name: FigureName): number => small.figures[name]?.cpu_us_per_request ?? Infinity;
  const verify = ceilings.floor_verify.cpu_us_per_request;
  return {
    verify_anon: verify / cost('verify_anon'),
    verify_tx10: verify / cost('verify_tx10'),
    dispense: ceilings.floor_sign.cpu_us_per_signature / cost('dispense'),
    create: verify / cost('create'),
  };
}

/** Scale ÷ small for each figure both sets have. */
export function computeScaleRatios(small: DatasetRun, scale: DatasetRun): Results['scale_ratios'] {
  const out: Results['scale_ratios'] = {};
  for (const name of SCALED_FIGURES) {
    const a = small.figures[name];
    const b = scale.figures[name];
    if (a && b) out[name] = { throughput: b.rps / a.rps, p99: b.p99_ms / a.p99_ms };
  }
  return out;
}

function target(
  name: string,
  value: number,
  comparison: Target['comparison'],
  limit: number,
): Target {
  const met =
    comparison === '>='
      ? value >= limit
      : comparison === '<='
        ? value <= limit
        : comparison === '<'
          ? value < limit
          : value === limit;
  return { name, value, limit, comparison, met };
}

/** The targets of the issue, each with its measured value. */
export function evaluateTargets(ratios: Ratios, mixed: Mixed, peakRssMb: number): Target[] {
  return [
    target('verify anonymous / floor-verify', ratios.verify_anon, '>=', 0.6),
    target('verify with transactions (10 events) / floor-verify', ratios.verify_tx10, '>=', 0.5),
    target('dispense (synchronous=FULL) / floor-sign', ratios.dispense, '>=', 0.5),
    target('create (data) / floor-verify', ratios.create, '>=', 0.4),
    target('scale: lowest throughput at scale / at 1,000', ratios.scale_throughput_min, '>=', 0.8),
    target('scale: highest p99 at scale / at 1,000', ratios.scale_p99_max, '<=', 1.25),
    target(
      'verify never verified since start / verify with transactions',
      ratios.verify_cold_to_warm,
      '>=',
      0.5,
    ),
    ...(ratios.dispense_with_streams === undefined
      ? []
      : [
          target(
            `dispense with ${EVENT_STREAMS} event streams open / without`,
            ratios.dispense_with_streams,
            '>=',
            STREAMS_TARGET,
          ),
        ]),
    ...(ratios.dispense_log_on_off === undefined
      ? []
      : [
          target(
            'dispense with the transparency log on / off',
            ratios.dispense_log_on_off,
            '>=',
            LOG_TARGET,
          ),
        ]),
    target('mixed: achieved / offered', mixed.achieved / mixed.offered, '>=', 0.99),
    target('mixed: p99 ms', mixed.p99_ms, '<', 100),
    target('mixed: errors', mixed.errors, '=', 0),
    target('peak RSS of erx, MB (every run)', peakRssMb, '<=', 250),
  ];
}
