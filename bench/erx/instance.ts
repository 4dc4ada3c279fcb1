/**
 * erx under test: `erx serve` as a child process on an ephemeral loopback port, configured as
 * shipped except for the two rate limits (SPEC.md §9) and the bound of connections per address,
 * which would otherwise refuse a load test whose every connection comes from 127.0.0.1, and its
 * metrics listener, on an ephemeral port too so that it never meets another erx's.
 */
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ListeningChild } from '../support/listening-child.js';
import { spawnListening } from '../support/listening-child.js';
import { nodeFlagsOf } from './node-flags.js';
import { PeakRss } from '../support/rss.js';

/** The prescription address of every link the bench creates or loads (any absolute URL works). */
export const BENCH_PRESCRIPTION_URL = 'http://erx.bench/rx/';

/** The environment erx runs with, as recorded in the results. */
export function erxEnvironment(dataDir: string): Record<string, string> {
  return {
    PORT: '0',
    ERX_HOST: '127.0.0.1',
    ERX_DATA_DIR: dataDir,
    ERX_PRESCRIPTION_URL: BENCH_PRESCRIPTION_URL,
    ERX_RATE_LIMIT_SUBJECT: '0',
    ERX_RATE_LIMIT_ANON: '0',
    // The figures repeat calls on a few prescriptions far past a real chain's length; the bounds
    // are still checked on every append.
    ERX_CHAIN_MAX_EVENTS: '1000000',
    ERX_CHAIN_ACTOR_EVENTS: '1000000',
    // The mixed run holds 512 connections and the streams figure 200 streams beside the load's
    // 32, all from 127.0.0.1: past the default 64 per address erx would reset them.
    ERX_MAX_CONNECTIONS_PER_ADDRESS: '0',
    ERX_METRICS_ADDR: '127.0.0.1:0',
  };
}

/**
 * What the mixed run adds, as an operator of a saturated machine sets it: past its capacity erx
 * refuses new calls with 503 instead of reading them seconds late (docs/decisions.md, "Load
 * shedding on in-flight requests, the signing queue and event-loop lag"). The signing queue keeps
 * erx's default bound: 32 per thread, and 4 per thread once it has filled up.
 * The closed-loop figures run with erx's defaults (no lag bound: there a garbage collection would
 * refuse a few calls).
 */
export const MIXED_RUN_ENVIRONMENT: Readonly<Record<string, string>> = {
  ERX_MAX_LAG_MS: '50',
};

export interface ErxInstance {
  readonly url: string;
  readonly pid: number;
  readonly rss: PeakRss;
  stop(): Promise<void>;
}

export interface StartErxOptions {
  /** Compiled CLI entry (see `build.ts`). */
  main: string;
  dataDir: string;
  /** Write a V8 CPU profile of the whole process here, named after `profileName`. */
  profileDir?: string;
  profileName?: string;
  /** Added to {@link erxEnvironment}. */
  env?: Readonly<Record<string, string>>;
}

/** Starts `erx serve` and resolves once it listens. */
export async function startErx(options: StartErxOptions): Promise<ErxInstance> {
  const flags: string[] = [];
  const name = options.profileName ?? 'erx';
  // Every thread writes its own profile (Node names them …<pid>.<thread id>.<seq>.cpuprofile).
  const threadDir =
    options.profileDir === undefined ? undefined : join(options.profileDir, `${name}.threads`);
  if (threadDir !== undefined) {
    mkdirSync(threadDir, { recursive: true });
    flags.push('--cpu-prof', `--cpu-prof-dir=${threadDir}`);
  }
  const child: ListeningChild = await spawnListening({
    args: [...nodeFlagsOf(options.main), ...flags, options.main, 'serve'],
    env: { ...erxEnvironment(options.dataDir), ...options.env },
    cwd: join(options.dataDir, '..'),
  });
  const stop = async (): Promise<void> => {
    await child.stop();
    if (threadDir !== undefined) collectProfiles(threadDir, options.profileDir!, name);
  };
  return { url: child.url, pid: child.pid, rss: new PeakRss(child.pid), stop };
}

/** Names the thread profiles `<name>.cpuprofile` (the main thread) and `<name>.thread-<id>…`. */
function collectProfiles(threadDir: string, profileDir: string, name: string): void {
  for (const file of readdirSync(threadDir)) {
    const thread = /\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1];
    if (thread === undefined) continue;
    const target = thread === '0' ? `${name}.cpuprofile` : `${name}.thread-${thread}.cpuprofile`;
    renameSync(join(threadDir, file), join(profileDir, target));
  }
  rmSync(threadDir, { recursive: true, force: true });
}
