/**
 * `results/compare.md` and `compare.json`: the erx of an earlier revision ("old") and of the
 * working tree ("new"), measured in turns in one run, each figure side by side with new ÷ old;
 * a figure the new build does more than 10 % worse than the old one is flagged.
 */
import type { Figure, FigureName } from '../figures.js';
import { comparisonText, fixed, int } from './format.js';
import { markdownTable } from './markdown.js';
import type { Mixed, Results } from './results.js';
import { FIGURE_LABELS } from './rows.js';

/** How much worse than the old build a figure may be before it is flagged. */
export const TOLERANCE = 0.1;

export interface ComparedFigure {
  readonly figure: string;
  readonly set: string;
  readonly measure: string;
  readonly old: number;
  readonly new: number;
  /** new ÷ old; null when the old value is 0. */
  readonly ratio: number | null;
  readonly higher_is_better: boolean;
  /** The new value is worse than the old one by more than the tolerance. */
  readonly worse: boolean;
}

export interface Comparison {
  readonly mode: Results['mode'];
  readonly date: string;
  readonly seconds: number;
  readonly old: { readonly revision: string; readonly commit: string };
  readonly new: { readonly commit: string; readonly dirty: boolean };
  readonly tolerance: number;
  readonly passes: number;
  readonly figures: ComparedFigure[];
  /** How many figures are flagged. */
  readonly worse: number;
  /** Cold verify ÷ warm verify with transactions of each build (`verify_cold_to_warm`). */
  readonly verify_cold_to_warm: {
    readonly old: number;
    readonly new: number;
    readonly limit: number;
    readonly met: boolean;
  };
  readonly results: { readonly old: Results; readonly new: Results };
}

/** Whether `next` is worse than `old` by more than `tolerance` (0 to 0 is not worse). */
export function isWorse(
  old: number,
  next: number,
  higherIsBetter: boolean,
  tolerance = TOLERANCE,
): boolean {
  return higherIsBetter ? next < old * (1 - tolerance) : next > old * (1 + tolerance);
}

interface Measure<T> {
  readonly name: string;
  readonly higherIsBetter: boolean;
  readonly of: (value: T) => number;
  readonly format: (value: number) => string;
}

const ms = (value: number): string => fixed(value);
const mb = (value: number): string => fixed(value, 0);

const FIGURE_MEASURES: readonly Measure<Figure>[] = [
  { name: 'req/s', higherIsBetter: true, of: (f) => f.rps, format: int },
  { name: 'p99 ms', higherIsBetter: false, of: (f) => f.p99_ms, format: ms },
  { name: 'erx CPU µs/req', higherIsBetter: false, of: (f) => f.cpu_us_per_request, format: int },
  { name: 'peak RSS MB', higherIsBetter: false, of: (f) => f.peak_rss_mb, format: mb },
];

const MIXED_MEASURES: readonly Measure<Mixed>[] = [
  { name: 'achieved calls/s', higherIsBetter: true, of: (m) => m.achieved, format: int },
  { name: 'p99 ms', higherIsBetter: false, of: (m) => m.p99_ms, format: ms },
  { name: 'errors', higherIsBetter: false, of: (m) => m.errors, format: int },
  { name: 'erx CPU µs/call', higherIsBetter: false, of: (m) => m.cpu_us_per_request, format: int },
  { name: 'peak RSS MB', higherIsBetter: false, of: (m) => m.peak_rss_mb, format: mb },
];

/** How each measure's values are written, by measure name. */
const FORMATS = new Map(
  [...FIGURE_MEASURES, ...MIXED_MEASURES].map((m) => [m.name, m.format] as const),
);

function compared<T>(
  figure: string,
  set: string,
  old: T,
  next: T,
  measures: readonly Measure<T>[],
): ComparedFigure[] {
  return measures.map((m) => {
    const a = m.of(old);
    const b = m.of(next);
    return {
      figure,
      set,
      measure: m.name,
      old: a,
      new: b,
      ratio: a === 0 ? null : b / a,
      higher_is_better: m.higherIsBetter,
      worse: isWorse(a, b, m.higherIsBetter),
    };
  });
}

/** Every figure both builds have, each measure side by side. */
function comparedFigures(old: Results, next: Results): ComparedFigure[] {
  const rows: ComparedFigure[] = [];
  for (const setName of ['small', 'scale'] as const) {
    const a = old.sets[setName];
    const b = next.sets[setName];
    const set = `${setName} (${int(a.prescriptions)})`;
    for (const name of Object.keys(FIGURE_LABELS) as FigureName[]) {
      const before = a.figures[name];
      const after = b.figures[name];
      if (before && after) {
        rows.push(...compared(FIGURE_LABELS[name], set, before, after, FIGURE_MEASURES));
      }
    }
  }
  rows.push(...compared('mixed run', 'scale, open loop', old.mixed, next.mixed, MIXED_MEASURES));
  rows.push(
    ...compared('erx, every process', 'both', old, next, [
      { name: 'peak RSS MB', higherIsBetter: false, of: (r) => r.peak_rss_mb, format: mb },
    ]),
  );
  return rows;
}

/** Compares the results of the old build with those of the new one, measured in the same run. */
export function compareResults(old: Results, next: Results, revision: string): Comparison {
  const figures = comparedFigures(old, next);
  const limit = 0.5;
  const cold = next.ratios.verify_cold_to_warm;
  return {
    mode: next.mode,
    date: old.run.date,
    seconds: Math.max(old.run.seconds, next.run.seconds),
    old: { revision, commit: old.run.commit },
    new: { commit: next.run.commit, dirty: next.run.dirty },
    tolerance: TOLERANCE,
    passes: Number(next.settings.figure_passes),
    figures,
    worse: figures.filter((f) => f.worse).length,
    verify_cold_to_warm: {
      old: old.ratios.verify_cold_to_warm,
      new: cold,
      limit,
      met: cold >= limit,
    },
    results: { old, new: next },
  };
}

/** How far a ratio is from 1, in whole per cent. */
const percentOff = (ratio: number): number => Math.round(Math.abs(1 - ratio) * 100);

/** The notes of both builds: those they share once, the others marked with their build. */
function notes(old: Results, next: Results): string[] {
  const shared = old.notes.filter((n) => next.notes.includes(n));
  const own = (results: Results, label: string): string[] =>
    results.notes.filter((n) => !shared.includes(n)).map((n) => `${label}: ${n}`);
  return [...shared, ...own(old, 'old'), ...own(next, 'new')];
}

export const COMPARE_HEADER = ['figure', 'set', 'measure', 'old', 'new', 'new/old', 'worse'];

/** One row per figure and measure. */
export function comparisonRows(comparison: Comparison): string[][] {
  return comparison.figures.map((f) => {
    const format = FORMATS.get(f.measure) ?? int;
    return [
      f.figure,
      f.set,
      f.measure,
      format(f.old),
      format(f.new),
      f.ratio === null ? '–' : fixed(f.ratio),
      !f.worse ? '' : f.ratio === null ? 'WORSE (was 0)' : `WORSE by ${percentOff(f.ratio)} %`,
    ];
  });
}

/** The command that measures the same comparison again. */
function reproduce(comparison: Comparison): string {
  const quick = comparison.mode === 'quick' ? ' --quick' : '';
  const passes = comparison.passes === 2 ? '' : ` --passes ${comparison.passes}`;
  return `npm run bench --${quick}${passes} --compare ${comparison.old.revision}`;
}

/** Renders the comparison as Markdown (also what the bench prints). */
export function renderComparison(comparison: Comparison): string {
  const { old, new: next } = comparison.results;
  const m = next.machine;
  const c = next.ceilings;
  const cold = comparison.verify_cold_to_warm;
  const flagged = comparison.figures
    .filter((f) => f.worse)
    .map(
      (f) =>
        `- ${f.figure}, ${f.set}: ${f.measure} ${f.ratio === null ? 'was 0' : `${fixed(f.ratio)} × the old`}`,
    );
  const percent = Math.round(comparison.tolerance * 100);
  return `# erx benchmark: ${comparison.mode} run, \`${comparison.old.commit.slice(0, 12)}\` against the working tree in turns

- date: ${comparison.date}
- old: \`${comparison.old.commit}\` (\`--compare ${comparison.old.revision}\`)
- new: the working tree at \`${comparison.new.commit}\`${comparison.new.dirty ? ' (modified)' : ''}
- machine: ${m.cpu_model}, ${m.cores} cores, ${m.memory_gib} GiB, ${m.platform}; node ${m.node}, OpenSSL ${m.openssl}
- reproduce: \`${reproduce(comparison)}\` (${int(comparison.seconds)} s this time)
- how: each build on its own copy of the same data sets, against the same ceilings (floor-http ${int(c.floor_http.rps)}/s, floor-verify ${int(c.floor_verify.rps)}/s, floor-sign ${int(c.floor_sign.ops_per_s)}/s); every figure in ${comparison.passes} passes per build, the builds taking turns (old first, then new first); a figure is its best pass.

## Verdict

${comparison.worse === 0 ? `No figure of the new build is worse than the old one's by more than ${percent} %.` : `${comparison.worse} of ${comparison.figures.length} figures of the new build are worse than the old one's by more than ${percent} %:\n\n${flagged.join('\n')}`}

Verify never verified since start ÷ warm verify with transactions: old ${fixed(cold.old, 3)}, new ${fixed(cold.new, 3)} (required ${comparisonText('>=', cold.limit)}: ${cold.met ? 'met' : 'NOT met'}).

## Figures

${markdownTable(COMPARE_HEADER, comparisonRows(comparison))}

new/old above 1 is better for rates, worse for times, CPU, memory and errors.

## Notes

${notes(old, next)
  .map((n) => `- ${n}`)
  .join('\n')}
`;
}
