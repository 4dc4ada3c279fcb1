/**
 * Dispense with the transparency log on ÷ off: partial dispense measured on the scale set by an
 * erx that keeps the log (every answer waits for a checkpoint that includes its event and carries
 * its receipt) and by one started with `ERX_LOG=off`, in turns (off, on, on, off, …) on the same
 * data directory, so that a machine whose speed drifts moves both sides alike. Each pass has its
 * own erx: an erx with the log on takes in, at its start, the events of the pass before it that
 * went unlogged, and the pass waits for that (`erx/log-catch-up.ts`) so that it measures its own
 * dispenses only. Every answer with the log on must carry a receipt and every one with it off
 * none, or the run fails as on a status other than 2xx. The ratio is the mean requests/s of the
 * passes with the log on ÷ the mean of those with it off.
 */
import type { ErxStart, LogCatchUp } from './erx/log-catch-up.js';
import { bestPass } from './figures.js';
import type { ErxTarget, Figure } from './figures.js';

/** Target: dispense with the log on ÷ off, at least. */
export const LOG_TARGET = 0.9;

export type LogCondition = 'off' | 'on';

/** One pass, as measured. */
export interface LogPass {
  readonly condition: LogCondition;
  readonly rps: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly cpu_us_per_request: number;
  readonly load_cpu_us_per_request: number;
  /** With the log on: the wait, from erx's start, for the unlogged events before the pass, s. */
  readonly catch_up_seconds?: number;
}

/** The figure, both conditions, as the results record it. */
export interface LogFigure {
  /** Each condition over its passes: the best pass's latencies, every pass's rate. */
  readonly off: Figure;
  readonly on: Figure;
  /** Every pass in the order measured. */
  readonly passes: LogPass[];
  /** Mean requests/s of the passes with the log on ÷ mean of those with it off. */
  readonly ratio: number;
  /** Mean erx CPU per dispense off ÷ on (the same comparison in CPU time). */
  readonly cost_ratio: number;
  /**
   * Mean CPU per dispense of erx and the load generator together, off ÷ on: what the machine
   * spends on each, which bounds the ratio when the two share its cores.
   */
  readonly machine_cost_ratio: number;
  /**
   * Means over each condition's passes: p50 and p99 latency, ms, and CPU µs per request of erx
   * and of the load generator.
   */
  readonly mean: Record<
    LogCondition,
    { p50_ms: number; p99_ms: number; cpu_us: number; load_cpu_us: number }
  >;
}

/** Off in passes 0, 3, 4, 7…, on in 1, 2, 5, 6…: every pass with the log has one without beside it. */
export function logConditionOf(pass: number): LogCondition {
  return pass % 4 === 1 || pass % 4 === 2 ? 'on' : 'off';
}

/** A started erx, for one pass, with when it was spawned and listened. */
export interface LogPassErx extends ErxStart {
  readonly target: ErxTarget;
  stop(): Promise<void>;
}

export interface LogFigureInput {
  /** Passes of each condition (at least 2). */
  readonly passes: number;
  /** Starts erx with the log on or off (`pass` numbers the passes, for its profile's name). */
  readonly start: (condition: LogCondition, pass: number) => Promise<LogPassErx>;
  /** Waits until the log of an erx with it on includes every event (`erx/log-catch-up.ts`). */
  readonly awaitCaughtUp: (erx: LogPassErx) => Promise<LogCatchUp>;
  /** One pass of the dispense figure; `receipts`: whether every answer must carry one. */
  readonly measure: (target: ErxTarget, receipts: boolean) => Promise<Figure>;
}

const mean = (values: readonly number[]): number =>
  values.reduce((sum, v) => sum + v, 0) / values.length;

/** What the passes measured, summed up. */
export function summarise(passes: readonly LogPass[], off: Figure, on: Figure): LogFigure {
  const of = (condition: LogCondition) => passes.filter((p) => p.condition === condition);
  const means = (condition: LogCondition): LogFigure['mean'][LogCondition] => ({
    p50_ms: mean(of(condition).map((p) => p.p50_ms)),
    p99_ms: mean(of(condition).map((p) => p.p99_ms)),
    cpu_us: mean(of(condition).map((p) => p.cpu_us_per_request)),
    load_cpu_us: mean(of(condition).map((p) => p.load_cpu_us_per_request)),
  });
  const machineCpu = (m: LogFigure['mean'][LogCondition]): number => m.cpu_us + m.load_cpu_us;
  const rps = (condition: LogCondition): number => mean(of(condition).map((p) => p.rps));
  const averaged = { off: means('off'), on: means('on') };
  return {
    off,
    on,
    passes: [...passes],
    ratio: rps('on') / rps('off'),
    cost_ratio: averaged.off.cpu_us / averaged.on.cpu_us,
    machine_cost_ratio: machineCpu(averaged.off) / machineCpu(averaged.on),
    mean: averaged,
  };
}

/** Measures dispense with the log off and on, in turns, each pass on an erx of its own. */
export async function measureLogFigure(
  input: LogFigureInput,
  onPass: (pass: LogPass) => void,
): Promise<LogFigure> {
  const count = 2 * Math.max(2, input.passes);
  const figures: { off?: Figure; on?: Figure } = {};
  const passes: LogPass[] = [];
  for (let at = 0; at < count; at++) {
    const condition = logConditionOf(at);
    const erx = await input.start(condition, at);
    try {
      const caughtUp = condition === 'on' ? await input.awaitCaughtUp(erx) : undefined;
      const figure = await input.measure(erx.target, condition === 'on');
      figures[condition] = bestPass(figures[condition], figure);
      const pass: LogPass = {
        condition,
        rps: figure.rps,
        p50_ms: figure.p50_ms,
        p99_ms: figure.p99_ms,
        cpu_us_per_request: figure.cpu_us_per_request,
        load_cpu_us_per_request: figure.load_cpu_us_per_request,
        ...(caughtUp === undefined ? {} : { catch_up_seconds: caughtUp.seconds }),
      };
      passes.push(pass);
      onPass(pass);
    } finally {
      await erx.stop();
    }
  }
  return summarise(passes, figures.off!, figures.on!);
}
