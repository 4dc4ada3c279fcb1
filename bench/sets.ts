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
import { awaitLogCaughtUp, hasSwitchableLog, LOG_OFF_ENVIRONMENT } from './erx/log-catch-up.js';
import type { ErxStart, LogCatchUp } from './erx/log-catch-up.js';
import type { Credentials } from './erx/clients.js';
import { MIXED_RUN_ENVIRONMENT, startErx } from './erx/instance.js';
import { registerClientsOf } from './erx/revision-code.js';
import type { ErxInstance } from './erx/instance.js';
import { bestPass, prime, runFigure } from './figures.js';
import type { ErxTarget, Figure, FigureName, PoolCursor } from './figures.js';
import { measureLogFigure } from './log-figure.js';
import { mixedRun } from './mixed-run.js';
import type { LogFigure, LogFigureInput } from './log-figure.js';
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
  /** `performance.now()` when erx was spawned, and when it listened. */
  readonly startedAt: number;
  readonly listeningAt: number;
}

async function open(
  ctx: SetContext,
  credentials: Credentials,
  label: string,
  env: Readonly<Record<string, string>> = {},
  profiled = true,
): Promise<Session> {
  const startedAt = performance.now();
  const erx = await startErx({
    main: ctx.build.main,
    dataDir: ctx.dataset.dataDir,
    profileDir: profiled ? ctx.profileDir : undefined,
    profileName: `${ctx.name}-${label}`,
    env,
  });
  const listeningAt = performance.now();
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
          loadCpuSeconds: cpu.benchSeconds,
          peakRssMb: erx.rss.stop(),
        };
      };
    },
  };
  return { erx, target, startedAt, listeningAt };
}

/** Seconds added to the warm-up of a figure measured on an erx just started (the log figure's). */
const FRESH_WARMUP_SECONDS = 2;

/**
 * A step of a set's measurements: a figure, dispense with event streams open, dispense with the
 * transparency log on and off, the mixed run.
 */
export type SetStep = FigureName | 'dispense_streams' | 'dispense_log' | 'mixed';

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
  let log: LogFigure | undefined;
  let session: Session | undefined;
  const stop = async (ended: Session): Promise<void> => {
    peak = Math.max(peak, ended.erx.rss.lifetimePeakMb() ?? 0);
    await ended.erx.stop();
  };
  const close = async (): Promise<void> => {
    if (!session) return;
    await stop(session);
    session = undefined;
  };
  const switchableLog = hasSwitchableLog(ctx.build);
  // The loaded events become leaves at erx's first start: every figure waits for it.
  let catchUp: LogCatchUp | undefined;
  const awaitCaughtUp = (
    erx: { target: ErxTarget } & ErxStart,
    leaves?: number,
  ): Promise<LogCatchUp> =>
    awaitLogCaughtUp(erx.target, ctx.dataset.manifest, ctx.sample, cursor, erx, leaves);
  // Each pass of the log figure has an erx of its own, off or on, and a longer warm-up for it.
  const logFigureInput = (): LogFigureInput => ({
    passes: ctx.options.figurePasses,
    start: async (condition, pass) => {
      const env = condition === 'off' ? LOG_OFF_ENVIRONMENT : {};
      const started = await open(ctx, credentials, `dispense_log-${condition}-${pass}`, env);
      return { ...started, stop: () => stop(started) };
    },
    awaitCaughtUp,
    measure: (target, receipts) =>
      runFigure(
        'dispense',
        target,
        ctx.dataset.manifest,
        ctx.sample,
        cursor,
        { ...figureSettings, warmupSeconds: figureSettings.warmupSeconds + FRESH_WARMUP_SECONDS },
        receipts,
      ),
  });
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
    if (step === 'dispense_log' && !switchableLog) {
      progress(`${ctx.name}: ${step} skipped (this build keeps no log that ERX_LOG=off turns off)`);
      return;
    }
    // With --profile every step has its own erx; the mixed run always does, with its environment;
    // each pass of the log figure does.
    const ownProcess = ctx.profileDir !== undefined || step === 'mixed' || step === 'dispense_log';
    if (ownProcess) await close();
    if (step === 'verify_cold') await restartForCold();
    if (session === undefined && step !== 'dispense_log') {
      session = await open(
        ctx,
        credentials,
        ownProcess ? step : 'all',
        step === 'mixed' ? MIXED_RUN_ENVIRONMENT : {},
      );
      if (catchUp === undefined && switchableLog) {
        // Nothing was added to the set before: its log is to hold the loaded events.
        catchUp = await awaitCaughtUp(session, ctx.dataset.manifest.events);
        progress(
          `${ctx.name}: the log took in the set's ${ctx.dataset.manifest.events.toLocaleString('en')} events ${catchUp.seconds.toFixed(1)} s after erx's start (it listened after ${catchUp.listening_seconds.toFixed(1)} s; ${catchUp.leaves === undefined ? 'first receipt' : 'checkpoint size'})`,
        );
      }
    }
    progress(`${ctx.name}: ${step}`);
    const warmStarted = performance.now();
    const warmed = warmDatabase(ctx.dataset.dataDir);
    const warmSeconds = (performance.now() - warmStarted) / 1000;
    if (warmSeconds >= 1) {
      progress(`  read ${Math.round(warmed / 1e6)} MB of database in ${warmSeconds.toFixed(1)} s`);
    }
    if (step === 'dispense_log') {
      log = await measureLogFigure(logFigureInput(), (pass) =>
        progress(
          `  log ${pass.condition}: ${Math.round(pass.rps)}/s, p50 ${pass.p50_ms.toFixed(1)} ms, p99 ${pass.p99_ms.toFixed(1)} ms, ${Math.round(pass.cpu_us_per_request)} µs CPU/req (load generator ${Math.round(pass.load_cpu_us_per_request)})${pass.catch_up_seconds === undefined ? '' : ` (caught up ${pass.catch_up_seconds.toFixed(1)} s after start)`}`,
        ),
      );
      progress(`  on ÷ off: ${log.ratio.toFixed(3)}`);
    } else if (session === undefined) {
      throw new Error(`${ctx.name}: ${step} without an erx`);
    } else if (step === 'mixed') {
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
        ...(log === undefined ? {} : { log }),
        ...(catchUp === undefined ? {} : { log_catch_up: catchUp }),
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
