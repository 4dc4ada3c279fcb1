/** Plain statements that go with the figures: how they were taken and what to read them with. */
import type { ErxBuild } from '../erx/build.js';
import type { MachineFacts } from '../machine.js';
import type { BenchOptions } from '../options.js';
import type { Ceilings, DatasetRun, Mixed } from './results.js';

export interface NoteInput {
  readonly options: BenchOptions;
  readonly machine: MachineFacts;
  readonly build: ErxBuild;
  readonly sets: { readonly small: DatasetRun; readonly scale: DatasetRun };
  readonly mixed: Mixed;
  readonly ceilings: Ceilings;
}

/** Above this share of the machine used by other processes, a measurement is flagged. */
const BUSY = 0.05;

function percent(share: number): string {
  return `${(share * 100).toFixed(0)} %`;
}

/** Measurements during which other processes took a noticeable share of the machine. */
function disturbed(input: NoteInput): string[] {
  const { sets, mixed, ceilings } = input;
  const seen: string[] = [];
  if (ceilings.floor_http.foreign_cpu > BUSY)
    seen.push(`floor-http ${percent(ceilings.floor_http.foreign_cpu)}`);
  if (ceilings.floor_verify.foreign_cpu > BUSY)
    seen.push(`floor-verify ${percent(ceilings.floor_verify.foreign_cpu)}`);
  if (ceilings.floor_sign.foreign_cpu > BUSY)
    seen.push(`floor-sign ${percent(ceilings.floor_sign.foreign_cpu)}`);
  for (const [name, set] of Object.entries(sets)) {
    for (const [figure, f] of Object.entries(set.figures)) {
      if (f && f.foreign_cpu > BUSY) seen.push(`${name} ${figure} ${percent(f.foreign_cpu)}`);
    }
  }
  const streams = sets.scale.streams;
  for (const [condition, f] of [
    ['without', streams?.without],
    ['with', streams?.with],
  ] as const) {
    if (f && f.foreign_cpu > BUSY) {
      seen.push(`scale dispense ${condition} streams ${percent(f.foreign_cpu)}`);
    }
  }
  const log = sets.scale.log;
  for (const condition of ['off', 'on'] as const) {
    const f = log?.[condition];
    if (f && f.foreign_cpu > BUSY) {
      seen.push(`scale dispense log ${condition} ${percent(f.foreign_cpu)}`);
    }
  }
  if (mixed.foreign_cpu > BUSY) seen.push(`mixed ${percent(mixed.foreign_cpu)}`);
  return seen;
}

function spread(passes: readonly number[]): number {
  return passes.length < 2 ? 0 : 1 - Math.min(...passes) / Math.max(...passes);
}

/** The notes of a run. */
export function notesFor(input: NoteInput): string[] {
  const { options, machine, build, sets, mixed, ceilings } = input;
  const notes = [
    `Load generator and erx share the machine's ${machine.cores} cores: every figure and ceiling is measured with the same generator (a worker thread of the bench process), ${options.connections} connections and durations, so ratios compare like with like.`,
    'Verify figures cycle through a working set of chains already verified once (the memo of SPEC.md §7 is warm).',
    `"Never verified since start" is the first verify after a restart: each of its ${options.coldLinks.toLocaleString('en')} chains was verified once with the pharmacist's token, then erx was stopped and started again on the same data directory (database and key files as they were) before each pass; a pass ends early when it has gone through them all.`,
    'Dispense on the small set goes round its 1,000 prescriptions, so their chains grow during the run; on the scale set every dispense hits a different prescription.',
    "Each figure (and the mixed run) starts with its set's SQLite files just read once, so they are in the kernel's page cache, as on a server whose memory holds its database.",
    'Peak RSS is the kernel high-water mark (VmHWM) of the erx process, reset per pass (a figure shows its highest pass), in MB of 10^6 bytes.',
    "Cost ratio: the ceiling's CPU time per operation ÷ erx's CPU time per request (from /proc); it hardly moves when other processes take CPU, so it is the cross-check of the throughput ratio on a shared machine.",
  ];
  if (sets.scale.source === 'cache') {
    notes.push(
      `The scale set was built by an earlier run (${sets.scale.load.date}, ${Math.round(sets.scale.load.events_per_s)} events/s) and copied into a fresh data directory; a sample of its chains and links was verified first.`,
    );
  }
  if (build.warnings !== undefined) {
    notes.push(
      `erx compiled with type errors (the tree was being edited): ${build.warnings.split('\n')[0]}`,
    );
  }
  if (machine.load_average_at_start > 0.5) {
    notes.push(
      `The machine was not idle at the start (load average ${machine.load_average_at_start.toFixed(2)}): figures may be low.`,
    );
  }
  for (const [name, set] of Object.entries(sets)) {
    for (const [figure, f] of Object.entries(set.figures)) {
      if (f && f.pool_wraps > 0 && !(name === 'small' && figure === 'dispense')) {
        notes.push(
          `${name} ${figure}: its pool of distinct prescriptions was used ${f.pool_wraps + 1} times over; that figure is flattered.`,
        );
      }
    }
  }
  const cold = sets.scale.figures.verify_cold;
  if (cold && cold.seconds < options.figureSeconds * 0.95) {
    notes.push(
      `scale verify_cold: its best pass used up the ${options.coldLinks.toLocaleString('en')} chains in ${cold.seconds.toFixed(1)} s of the ${options.figureSeconds} s of a pass.`,
    );
  }
  const busy = disturbed(input);
  if (busy.length > 0) {
    notes.push(
      `Other processes used part of the machine during: ${busy.join(', ')}; those figures are low by about that much.`,
    );
  }
  // Measurements whose passes were far apart: the higher pass is the ceiling or the figure.
  const measured: [label: string, passes: readonly number[], role: string][] = [
    ['floor-verify', ceilings.floor_verify.passes, 'ceiling'],
    ['floor-sign', ceilings.floor_sign.passes, 'ceiling'],
  ];
  for (const [name, set] of Object.entries(sets)) {
    for (const [figure, f] of Object.entries(set.figures)) {
      if (f) measured.push([`${name} ${figure}`, f.passes, 'figure']);
    }
  }
  for (const [label, passes, role] of measured) {
    if (spread(passes) > 0.1) {
      notes.push(
        `${label} differed by ${percent(spread(passes))} between its passes (${passes.map((p) => Math.round(p)).join(' and ')}/s); the higher one is the ${role}.`,
      );
    }
  }
  const streams = sets.scale.streams;
  for (const [condition, f] of [
    ['without', streams?.without],
    ['with', streams?.with],
  ] as const) {
    if (f && spread(f.passes) > 0.1) {
      notes.push(
        `scale dispense ${condition} streams differed by ${percent(spread(f.passes))} between its passes (${f.passes.map((p) => Math.round(p)).join(' and ')}/s); the streams ratio takes the mean of each side, so read it with its CPU time ratio.`,
      );
    }
  }
  if (mixed.max_send_lag_ms > 50) {
    notes.push(
      `Mixed run: the generator itself fell up to ${mixed.max_send_lag_ms.toFixed(0)} ms behind schedule; those delays count in the latency.`,
    );
  }
  if (options.profile)
    notes.push('Profiled run: erx ran under the V8 CPU profiler (slower); see profile-summary.md.');
  return notes;
}
