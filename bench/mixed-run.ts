/**
 * The mixed open-loop run on a set's erx: each kind of call warmed up in a closed loop first, then
 * verifies, dispenses and creates sent when due at the run's rate, whatever the answers.
 */
import { closedLoop } from './load/closed-loop.js';
import { openLoop } from './load/open-loop.js';
import { requireNoRefusals } from './load/served.js';
import type { ErxTarget, PoolCursor } from './figures.js';
import type { Mixed } from './report/results.js';
import type { Manifest } from './data/dataset.js';
import type { SampleDocument } from './data/document.js';
import type { BenchOptions } from './options.js';

/** What the mixed run needs of a set (`sets.ts`'s context has it). */
export interface MixedRunContext {
  readonly name: string;
  readonly dataset: { readonly manifest: Manifest };
  readonly sample: SampleDocument;
  readonly options: BenchOptions;
}

/** A closed-loop warm-up of one kind of call: a second, no measurement kept. */
function warmUp(ctx: MixedRunContext): {
  connections: number;
  warmupSeconds: number;
  seconds: number;
} {
  return { connections: ctx.options.connections, warmupSeconds: 0, seconds: 1 };
}

/** Runs the mixed open loop against `target`, its dispenses continuing the pool at `cursor`. */
export async function mixedRun(
  ctx: MixedRunContext,
  target: ErxTarget,
  cursor: PoolCursor,
): Promise<Mixed> {
  const { manifest } = ctx.dataset;
  const verify = {
    kind: 'verify',
    path: '/ePrescription/verify',
    links: manifest.verifyLinks,
    authorization: target.pharmacist,
  } as const;
  const dispense = {
    kind: 'dispense',
    ids: manifest.dispenseIds,
    medicamentId: ctx.sample.medicamentId,
    authorization: target.pharmacist,
  } as const;
  const create = {
    kind: 'create',
    templateText: ctx.sample.text,
    authorization: target.prescriber,
  } as const;
  // The mixed run's erx has just started: each kind of call is warmed up first, as every figure
  // is, so the run measures erx serving, not V8 compiling its code paths (in a trace, the event
  // loop stood still for 50–92 ms at a time in the first seconds of dispenses and creates).
  const plans = { verify, dispense, create };
  const warmUpWith = async (kind: keyof typeof plans, seconds: number): Promise<void> => {
    const offset = kind === 'dispense' ? cursor.dispense : 0;
    const warmed = await closedLoop({
      ...warmUp(ctx),
      url: target.url,
      plan: plans[kind],
      seconds,
      offset,
    });
    if (kind === 'dispense') cursor.dispense += warmed.issued;
    // This erx sheds load (503) as the mixed run's does; a refusal (4xx) is never right.
    requireNoRefusals(`mixed warm-up ${kind}`, warmed.statusCounts);
  };
  await warmUpWith('verify', 2);
  await warmUpWith('dispense', 1);
  await warmUpWith('create', 1);
  const stopWatching = target.watch();
  const result = await openLoop({
    url: target.url,
    rate: ctx.options.mixedRate,
    seconds: ctx.options.mixedSeconds,
    timeoutMs: 10_000,
    mix: [
      { name: 'verify_tx10', weight: 70, plan: verify, offset: 0 },
      {
        name: 'dispense',
        weight: 25,
        plan: dispense,
        offset: cursor.dispense,
      },
      { name: 'create', weight: 5, plan: create, offset: 0 },
    ],
  });
  const seen = stopWatching();
  cursor.dispense += result.kinds.dispense?.sent ?? 0;
  requireNoRefusals('mixed', result.statusCounts);
  return {
    offered: result.offered,
    achieved: result.achieved,
    p99_ms: result.latency.p99Ms,
    errors: result.errors,
    p50_ms: result.latency.p50Ms,
    max_ms: result.latency.maxMs,
    sent: result.sent,
    ok: result.ok,
    seconds: result.seconds,
    max_send_lag_ms: result.maxSendLagMs,
    peak_rss_mb: seen.peakRssMb,
    foreign_cpu: seen.foreignCpu,
    cpu_us_per_request: (seen.erxCpuSeconds * 1e6) / result.sent,
    data_set: ctx.name,
    kinds: result.kinds,
    status_counts: result.statusCounts,
  };
}
