/** Latency histograms with microsecond resolution (autocannon's own keeps whole milliseconds). */
import { createHistogram } from 'node:perf_hooks';
import type { RecordableHistogram } from 'node:perf_hooks';

export interface LatencySummary {
  readonly count: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
}

/** A new histogram (values in microseconds). */
export function latencyHistogram(): RecordableHistogram {
  return createHistogram();
}

/** Records `ms` into `histogram` as whole microseconds (at least 1). */
export function recordMs(histogram: RecordableHistogram, ms: number): void {
  histogram.record(Math.max(1, Math.round(ms * 1000)));
}

/** Percentiles in milliseconds. */
export function summarise(histogram: RecordableHistogram): LatencySummary {
  const ms = (us: number): number => us / 1000;
  if (histogram.count === 0) return { count: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, maxMs: 0, meanMs: 0 };
  return {
    count: histogram.count,
    p50Ms: ms(histogram.percentile(50)),
    p90Ms: ms(histogram.percentile(90)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
    meanMs: ms(histogram.mean),
  };
}
