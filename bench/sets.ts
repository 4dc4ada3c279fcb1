/**
 * Running the figures on one data set: clients registered, erx started on the set's data
 * directory (one process for all figures, or one per figure with --profile, each writing its CPU
 * profile; the cold figure restarts it), tokens fetched, then each figure (or the mixed run) when
 * the caller asks for it, so the figures of several sets and builds can be measured by turns.
 * The data directory is prepared once, before the first start, and kept across restarts.
 */
import type { Dataset } from './data/dataset.js';
import { warmDatabase } from './data/page-cache.js';
import type { SampleDocument } from './data/document.js';
import type { ErxBuild } from './erx/build.js';
import { bearerFor, PHARMACIST, PRESCRIBER } from './erx/clients.js';
import type { Credentials } from './erx/clients.js';
import { MIXED_RUN_ENVIRONMENT, startErx } from './erx/instance.js';
import { registerClientsOf } from './erx/revision-code.js';
import type { ErxInstance } from './erx/instance.js';
import { bestPass, prime, runFigure } from './figures.js';
import type { ErxTarget, Figure, FigureName, PoolCursor } from './figures.js';
import { closedLoop } from './load/closed-loop.js';
import { openLoop } from './load/open-loop.js';
import { requireNoRefusals } from './load/served.js';
import type { BenchOptions } from './options.js';
import type { DatasetRun, Mixed } from './report/results.js';
import { EVENT_STREAMS, measureStreamsFigure, streamAuthorizations } from './streams-figure.js';
import type { StreamsFigure } from './streams-figure.js';
import { watchCpu } from './support/cpu-watch.js';
import { progress } from './support/log.js';

export interface SetContext {
  readonly name: string;
  readonly dataset: Dataset;
  readonly sample: SampleDocument;
  readonly options: BenchOptions;
  /** The erx measured; its own code registers the bench's clients. */
  readonly build: ErxBuild;
  /** CPU profiles go here (with --profile). */
  readonly profileDir: string | undefined;
}

interface Session {
  readonly erx: ErxInstance;
  readonly target: ErxTarget;
}

async function open(
  ctx: SetContext,
  credentials: Credentials,
  label: string,
  env: Readonly<Record<string, string>> = {},
  profiled = true,
): Promise<Session> {
  const erx = await startErx({
    main: ctx.build.main,
    dataDir: ctx.dataset.dataDir,
    profileDir: profiled ? ctx.profileDir : undefined,
    profileName: `${ctx.name}-${label}`,
    env,
  });
  const target: ErxTarget = {
    url: erx.url,
    prescriber: await bearerFor(erx.url, PRESCRIBER.clientId, credentials.prescriber),
    pharmacist: await bearerFor(erx.url, PHARMACIST.clientId, credentials.pharmacist),
    watch: () => {
      erx.rss.start();
      const stopCpu = watchCpu([erx.pid]);
      return () => {
        const cpu = stopCpu();
        return {
          foreignCpu: cpu.foreign,
          erxCpuSeconds: cpu.watchedSeconds,
          peakRssMb: erx.rss.stop(),
        };
      };
    },
  };
  return { erx, target };
}

/** A closed-loop warm-up of one kind of call: a second, no measurement kept. */
function warmUp(ctx: SetContext): { connections: number; warmupSeconds: number; seconds: number } {
  return { connections: ctx.options.connections, warmupSeconds: 0, seconds: 1 };
}

async function mixedRun(ctx: SetContext, target: ErxTarget, cursor: PoolCursor): Promise<Mixed> {
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

/** A step of a set's measurements: a figure, dispense with event streams open, the mixed run. */
export type SetStep = FigureName | 'dispense_streams' | 'mixed';

/** One data set's erx, measured a step at a time (so two sets can take turns). */
export interface SetRunner {
  /** Measures one figure, or the mixed run, on this set. */
  measure(step: SetStep): Promise<void>;
  /** Stops erx and answers what was measured. */
  finish(): Promise<{ run: DatasetRun; mixed: Mixed | undefined }>;
}

/**
 * Opens the set of `ctx` for measuring: clients registered, erx started on first use (one process
 * for all figures, or one per step with --profile; the mixed run always has its own).
 */
export async function openSet(ctx: SetContext): Promise<SetRunner> {
  const credentials = await registerClientsOf(ctx.build, ctx.dataset.dataDir);
  const cursor: PoolCursor = { dispense: 0, cold: 0 };
  const results: Partial<Record<FigureName, Figure>> = {};
  let peak = 0;
  let mixed: Mixed | undefined;
  let streams: StreamsFigure | undefined;
  let session: Session | undefined;
  const close = async (): Promise<void> => {
    if (!session) return;
    peak = Math.max(peak, session.erx.rss.lifetimePeakMb() ?? 0);
    await session.erx.stop();
    session = undefined;
  };
  const figureSettings = {
    connections: ctx.options.connections,
    warmupSeconds: ctx.options.warmupSeconds,
    seconds: ctx.options.figureSeconds,
  };
  let coldPrimed = false;
  /**
   * The cold figure measures the first verifies after a restart. Its chains are verified once
   * each, with the pharmacist's token, by the erx that ran the other figures (as a pharmacy's
   * counter would have before the restart); then that erx is stopped and another one started on
   * the same data directory, whatever erx keeps there (the database, key files) left as it was.
   * Every cold pass has its own restart, so every pass goes through the same chains.
   */
  const restartForCold = async (): Promise<void> => {
    if (!coldPrimed) {
      session ??= await open(ctx, credentials, 'verify_cold-prime', {}, false);
      const links = ctx.dataset.manifest.coldLinks;
      const started = performance.now();
      await prime(session.target.url, links, session.target.pharmacist);
      const seconds = (performance.now() - started) / 1000;
      progress(
        `${ctx.name}: ${links.length.toLocaleString('en')} cold chains verified once in ${seconds.toFixed(1)} s`,
      );
      coldPrimed = true;
    }
    await close();
    cursor.cold = 0;
  };
  const measure = async (step: SetStep): Promise<void> => {
    if (step === 'dispense_streams' && credentials.streamers === undefined) {
      progress(`${ctx.name}: ${step} skipped (this build's bench registers no stream clients)`);
      return;
    }
    // With --profile every step has its own erx; the mixed run always does, with its environment.
    const ownProcess = ctx.profileDir !== undefined || step === 'mixed';
    if (ownProcess) await close();
    if (step === 'verify_cold') await restartForCold();
    session ??= await open(
      ctx,
      credentials,
      ownProcess ? step : 'all',
      step === 'mixed' ? MIXED_RUN_ENVIRONMENT : {},
    );
    progress(`${ctx.name}: ${step}`);
    const warmStarted = performance.now();
    const warmed = warmDatabase(ctx.dataset.dataDir);
    const warmSeconds = (performance.now() - warmStarted) / 1000;
    if (warmSeconds >= 1) {
      progress(`  read ${Math.round(warmed / 1e6)} MB of database in ${warmSeconds.toFixed(1)} s`);
    }
    if (step === 'mixed') {
      mixed = await mixedRun(ctx, session.target, cursor);
      progress(
        `  achieved ${Math.round(mixed.achieved)}/s of ${Math.round(mixed.offered)}/s, p99 ${mixed.p99_ms.toFixed(1)} ms, ${mixed.errors} errors`,
      );
    } else if (step === 'dispense_streams') {
      streams = await measureStreamsFigure(
        {
          target: session.target,
          streams: await streamAuthorizations(session.target, credentials.streamers ?? []),
          manifest: ctx.dataset.manifest,
          sample: ctx.sample,
          cursor,
          settings: figureSettings,
          passes: ctx.options.figurePasses,
        },
        (condition, figure) =>
          progress(
            `  ${condition === 'with' ? `with ${EVENT_STREAMS} streams` : 'without streams'}: ${Math.round(figure.rps)}/s, p99 ${figure.p99_ms.toFixed(1)} ms, ${Math.round(figure.cpu_us_per_request)} µs CPU/req`,
          ),
      );
      progress(`  with ÷ without: ${streams.ratio.toFixed(3)}`);
    } else {
      const figure = await runFigure(
        step,
        session.target,
        ctx.dataset.manifest,
        ctx.sample,
        cursor,
        figureSettings,
      );
      results[step] = bestPass(results[step], figure);
      progress(
        `  ${Math.round(figure.rps)}/s, p50 ${figure.p50_ms.toFixed(1)} ms, p99 ${figure.p99_ms.toFixed(1)} ms, ${figure.errors} errors`,
      );
    }
    if (ownProcess) await close();
  };
  const finish = async (): Promise<{ run: DatasetRun; mixed: Mixed | undefined }> => {
    await close();
    const { manifest } = ctx.dataset;
    return {
      run: {
        prescriptions: manifest.prescriptions,
        events: manifest.events,
        source: ctx.dataset.source,
        prepare_seconds: ctx.dataset.prepareSeconds,
        load: {
          seconds: manifest.load.seconds,
          events_per_s: manifest.load.eventsPerSecond,
          date: manifest.load.date,
        },
        erx_peak_rss_mb: peak,
        figures: results,
        ...(streams === undefined ? {} : { streams }),
      },
      mixed,
    };
  };
  return {
    measure: async (step) => {
      try {
        await measure(step);
      } catch (error) {
        await close();
        throw error;
      }
    },
    finish,
  };
}
