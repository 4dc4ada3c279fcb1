/** The rows and text both reports show of the log figure (dispense with the log on and off). */
import type { LogCondition, LogFigure } from '../log-figure.js';
import { fixed, int } from './format.js';
import type { Results } from './results.js';

export const LOG_HEADER = [
  'condition',
  'req/s (mean)',
  'passes',
  'p50 ms (mean)',
  'p99 ms (mean)',
  'erx CPU µs/req (mean)',
  'load CPU µs/req (mean)',
  'peak RSS MB',
  'errors',
  'other CPU',
];

const LABELS: Record<LogCondition, string> = {
  off: 'log off (ERX_LOG=off)',
  on: 'log on, a receipt in every answer',
};

/** Dispense with the log off and on, when measured. */
export function logRows(results: Results): string[][] {
  const log = results.sets.scale.log;
  if (log === undefined) return [];
  return (['off', 'on'] as const).map((condition) => {
    const passes = log.passes.filter((p) => p.condition === condition);
    const figure = log[condition];
    return [
      LABELS[condition],
      int(passes.reduce((sum, p) => sum + p.rps, 0) / passes.length),
      passes.map((p) => int(p.rps)).join(' / '),
      fixed(log.mean[condition].p50_ms),
      fixed(log.mean[condition].p99_ms),
      int(log.mean[condition].cpu_us),
      int(log.mean[condition].load_cpu_us),
      fixed(figure.peak_rss_mb, 0),
      int(figure.errors),
      `${Math.round(figure.foreign_cpu * 100)} %`,
    ];
  });
}

const signed = (value: number, digits: number): string =>
  `${value >= 0 ? '+' : '−'}${fixed(Math.abs(value), digits)}`;

/** What the on passes waited for, from erx's start: the lowest and highest, s. */
function waits(log: LogFigure): string {
  const seconds = log.passes.flatMap((p) => p.catch_up_seconds ?? []);
  if (seconds.length === 0) return '';
  const low = fixed(Math.min(...seconds), 1);
  const high = fixed(Math.max(...seconds), 1);
  return low === high ? `${low} s` : `${low}–${high} s`;
}

/** How long each set's log took to take in its loaded events at erx's first start. */
export function catchUpText(results: Results): string {
  const sets = Object.entries(results.sets).filter(([, set]) => set.log_catch_up !== undefined);
  if (sets.length === 0) return '';
  const parts = sets.map(([name, set]) => {
    const c = set.log_catch_up!;
    const how = c.leaves === undefined ? 'first answer with a receipt' : 'checkpoint of that size';
    return `the ${name} set's ${int(set.events)} events ${fixed(c.seconds, 1)} s after erx's start (it listened after ${fixed(c.listening_seconds, 1)} s; ${how})`;
  });
  return (
    "Log catch-up: at erx's first start on a bulk-loaded set none of its events is a leaf yet; " +
    `the transparency log took in ${parts.join(', and ')}. Every figure is measured after it.`
  );
}

/** What the log figure measured, in one paragraph (empty when it was not measured). */
export function logText(results: Results): string {
  const log = results.sets.scale.log;
  if (log === undefined) return '';
  const { off, on } = log.mean;
  return (
    'Partial dispense on the scale set by an erx keeping the transparency log (every answer waits ' +
    'for a checkpoint that includes its event and carries its receipt; an answer without one fails ' +
    'the run) and by one started with `ERX_LOG=off` (no answer may carry one), each pass on an erx ' +
    `of its own on the same data, in turns (${log.passes.map((p) => p.condition).join(', ')}). ` +
    `Each pass with the log on first waited until the log had taken in the events of the pass before ` +
    `it (${waits(log)} after erx's start). Ratio = mean req/s on ÷ mean off = ${fixed(log.ratio, 3)}; ` +
    `in CPU time (CPU µs/req off ÷ on) ${fixed(log.cost_ratio, 3)}, and ` +
    `${fixed(log.machine_cost_ratio, 3)} for erx and the load generator together (they share ` +
    `the machine's cores); with the log on, p50 ` +
    `${signed(on.p50_ms - off.p50_ms, 1)} ms, p99 ${signed(on.p99_ms - off.p99_ms, 1)} ms, ` +
    `erx CPU ${signed(on.cpu_us - off.cpu_us, 0)} µs and load generator CPU ` +
    `${signed(on.load_cpu_us - off.load_cpu_us, 0)} µs per dispense (means of the passes).`
  );
}
