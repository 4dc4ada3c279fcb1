/** The rows both reports show, built once from a {@link Results}. */
import type { Figure, FigureName } from '../figures.js';
import type { Results } from './results.js';
import { comparisonText, fixed, int } from './format.js';

/** What each figure measures, as the reports name it. */
export const FIGURE_LABELS: Record<FigureName, string> = {
  verify_anon: 'verify anonymous',
  verify_tx10: 'verify with transactions, 10 events',
  dispense: 'partial dispense, distinct prescriptions',
  create: 'create (data)',
  verify_cold: 'verify with transactions, never verified since start',
};

const CEILING: Record<FigureName, 'floor_verify' | 'floor_sign' | undefined> = {
  verify_anon: 'floor_verify',
  verify_tx10: 'floor_verify',
  dispense: 'floor_sign',
  create: 'floor_verify',
  verify_cold: undefined,
};

export const FIGURE_HEADER = [
  'figure',
  'set',
  'req/s',
  'passes',
  'p50 ms',
  'p99 ms',
  'peak RSS MB',
  'ratio',
  'ceiling',
  'errors',
  'other CPU',
  'erx CPU µs/req',
  'cost ratio',
];

/** One row per figure and set. */
export function figureRows(results: Results): string[][] {
  const rows: string[][] = [];
  for (const [setName, set] of Object.entries(results.sets)) {
    for (const [name, figure] of Object.entries(set.figures) as [
      FigureName,
      NonNullable<(typeof set.figures)[FigureName]>,
    ][]) {
      const ceilingName = CEILING[name];
      const ceiling =
        ceilingName === 'floor_sign'
          ? results.ceilings.floor_sign.ops_per_s
          : ceilingName === 'floor_verify'
            ? results.ceilings.floor_verify.rps
            : undefined;
      const ceilingCost =
        ceilingName === 'floor_sign'
          ? results.ceilings.floor_sign.cpu_us_per_signature
          : ceilingName === 'floor_verify'
            ? results.ceilings.floor_verify.cpu_us_per_request
            : undefined;
      const wraps = figure.pool_wraps > 0 ? ` (pool reused ${figure.pool_wraps}×)` : '';
      rows.push([
        FIGURE_LABELS[name] + wraps,
        `${setName} (${int(set.prescriptions)})`,
        int(figure.rps),
        passes(figure.passes),
        fixed(figure.p50_ms),
        fixed(figure.p99_ms),
        fixed(figure.peak_rss_mb, 0),
        ceiling === undefined ? '–' : fixed(figure.rps / ceiling),
        ceilingName?.replace('_', '-') ?? '–',
        int(figure.errors),
        share(figure.foreign_cpu),
        int(figure.cpu_us_per_request),
        ceilingCost === undefined ? '–' : fixed(ceilingCost / figure.cpu_us_per_request),
      ]);
    }
  }
  return rows;
}

export const CEILING_HEADER = [
  'ceiling',
  'per second',
  'passes',
  'p50 ms',
  'p99 ms',
  'other CPU',
  'CPU µs/op',
  'how',
];

const passes = (list: readonly number[]): string => list.map(int).join(' / ');
const share = (value: number): string => `${Math.round(value * 100)} %`;

/** The three ceilings. */
export function ceilingRows(results: Results): string[][] {
  const c = results.ceilings;
  const sign = c.floor_sign;
  return [
    [
      'floor-http',
      int(c.floor_http.rps),
      passes(c.floor_http.passes),
      fixed(c.floor_http.p50_ms),
      fixed(c.floor_http.p99_ms),
      share(c.floor_http.foreign_cpu),
      int(c.floor_http.cpu_us_per_request),
      'bare Fastify, constant JSON',
    ],
    [
      'floor-verify',
      int(c.floor_verify.rps),
      passes(c.floor_verify.passes),
      fixed(c.floor_verify.p50_ms),
      fixed(c.floor_verify.p99_ms),
      share(c.floor_verify.foreign_cpu),
      int(c.floor_verify.cpu_us_per_request),
      'bare Fastify, parseLink + Ed25519 verify',
    ],
    [
      'floor-sign',
      int(sign.ops_per_s),
      passes(sign.passes),
      '–',
      '–',
      share(sign.foreign_cpu),
      int(sign.cpu_us_per_signature),
      `ES384, ${sign.threads} worker threads, ${sign.method} (node-crypto-sync ${int(sign.variants['node-crypto-sync'])}/s, webcrypto ${int(sign.variants.webcrypto)}/s, one thread ${int(sign.single_thread)}/s)`,
    ],
  ];
}

export const TARGET_HEADER = ['target', 'measured', 'required', 'met'];

/** The targets of the issue. */
export function targetRows(results: Results): string[][] {
  return results.targets.map((t) => [
    t.name,
    t.comparison === '=' ? int(t.value) : fixed(t.value, /\b(ms|MB)\b/.test(t.name) ? 1 : 3),
    comparisonText(t.comparison, t.limit),
    t.met ? 'yes' : 'NO',
  ]);
}

export const STREAMS_HEADER = [
  'condition',
  'req/s (mean)',
  'passes',
  'p50 ms',
  'p99 ms',
  'erx CPU µs/req (mean)',
  'peak RSS MB',
  'errors',
  'other CPU',
];

/** Dispense without and with the event streams open, when measured. */
export function streamsRows(results: Results): string[][] {
  const streams = results.sets.scale.streams;
  if (streams === undefined) return [];
  const mean = (values: readonly number[]): number =>
    values.reduce((sum, v) => sum + v, 0) / values.length;
  const row = (label: string, figure: Figure, cpuUs: readonly number[]): string[] => [
    label,
    int(mean(figure.passes)),
    passes(figure.passes),
    fixed(figure.p50_ms),
    fixed(figure.p99_ms),
    int(mean(cpuUs)),
    fixed(figure.peak_rss_mb, 0),
    int(figure.errors),
    share(figure.foreign_cpu),
  ];
  return [
    row('without streams', streams.without, streams.cpu_us_per_request.without),
    row(`with ${streams.streams} streams open`, streams.with, streams.cpu_us_per_request.with),
  ];
}

/** What the streams figure measured, in one paragraph (empty when it was not measured). */
export function streamsText(results: Results): string {
  const s = results.sets.scale.streams;
  if (s === undefined) return '';
  const others = s.streams - s.seeing;
  return (
    `Partial dispense on the scale set with ${s.streams} event streams held open against the same erx ` +
    `(${s.subjects} subjects, 5 streams each, erx's bound): the acting pharmacy's 5 and the issuing ` +
    `practice's 5 see every dispense (each received ${int(s.events_received.seeing_min)}–${int(s.events_received.seeing_max)} events); ` +
    `the other ${others} belong to ${s.subjects - 2} practices and pharmacies with no part in the dispenses ` +
    `(${int(s.events_received.others)} events between them) but are woken and read the feed all the same. ` +
    `Passes in turns (${s.order.join(', ')}) on one erx; ratio = mean req/s with ÷ mean without = ${fixed(s.ratio, 3)}, ` +
    `in CPU time (CPU µs/req without ÷ with) ${fixed(s.cost_ratio, 3)}.`
  );
}
