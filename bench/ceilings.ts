/**
 * The ceilings of the same run: floor-http and floor-verify as bare Fastify servers in their own
 * processes, driven exactly like erx (same load generator, connections and durations), and
 * floor-sign in worker threads of the bench process. floor-verify and floor-sign, which the
 * ratios divide by, are measured before the figures and again after them; the higher pass is the
 * ceiling, so a neighbour's burst of CPU during one pass can only make the ratios stricter.
 */
import { fileURLToPath } from 'node:url';
import { measureSignFloor } from './floors/sign.js';
import { closedLoop } from './load/closed-loop.js';
import type { RequestPlan } from './load/request-plan.js';
import { requestAt } from './load/request-plan.js';
import type { BenchOptions } from './options.js';
import type { Ceilings, FloorFigure } from './report/results.js';
import { watchCpu } from './support/cpu-watch.js';
import { spawnListening } from './support/listening-child.js';
import { progress } from './support/log.js';

/** What the floors run on: the small set's link keys and working-set links. */
export interface FloorInput {
  readonly linkKeysDir: string;
  readonly links: readonly string[];
}

async function floorServer(
  script: string,
  args: string[],
  plan: RequestPlan,
  options: BenchOptions,
): Promise<FloorFigure> {
  const path = fileURLToPath(new URL(`./floors/${script}`, import.meta.url));
  const server = await spawnListening({
    args: ['--import', 'tsx', path, ...args],
    env: { PORT: '0' },
  });
  try {
    const first = requestAt(plan, 0);
    const check = await fetch(`${server.url}${first.path}`, {
      method: 'POST',
      headers: first.headers,
      body: first.body,
    });
    const body = (await check.json()) as Record<string, unknown>;
    if (check.status !== 200 || (plan.kind === 'verify' && body.valid !== true)) {
      throw new Error(
        `${script}: the checked request failed: ${check.status} ${JSON.stringify(body)}`,
      );
    }
    const stopCpu = watchCpu([server.pid]);
    const result = await closedLoop({
      url: server.url,
      plan,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      seconds: options.figureSeconds,
      offset: 1,
    });
    const cpu = stopCpu();
    return {
      rps: result.rps,
      p50_ms: result.latency.p50Ms,
      p99_ms: result.latency.p99Ms,
      errors: result.non2xx + result.errors,
      foreign_cpu: cpu.foreign,
      cpu_us_per_request: (cpu.watchedSeconds * 1e6) / (result.issued + 1),
      passes: [result.rps],
    };
  } finally {
    await server.stop();
  }
}

function floorVerify(options: BenchOptions, input: FloorInput): Promise<FloorFigure> {
  return floorServer(
    'verify-server.ts',
    [input.linkKeysDir],
    { kind: 'verify', path: '/verify', links: input.links },
    options,
  );
}

async function floorSign(options: BenchOptions): Promise<Ceilings['floor_sign']> {
  const stopCpu = watchCpu([]);
  const sign = await measureSignFloor(options.floorSignSeconds);
  return {
    ops_per_s: sign.opsPerSecond,
    method: sign.method,
    threads: sign.threads,
    variants: sign.variants,
    single_thread: sign.singleThread,
    cpu_us_per_signature: sign.cpuMicrosPerSignature,
    foreign_cpu: stopCpu().foreign,
    passes: [sign.opsPerSecond],
  };
}

/** The better of two passes of a floor server, with both rates kept. */
function better(a: FloorFigure, b: FloorFigure): FloorFigure {
  return { ...(b.rps > a.rps ? b : a), passes: [...a.passes, ...b.passes] };
}

/** The first pass of all three ceilings (before the figures). */
export async function measureCeilings(options: BenchOptions, input: FloorInput): Promise<Ceilings> {
  progress('ceiling floor-http');
  const http = await floorServer(
    'http-server.ts',
    [],
    { kind: 'constant', path: '/floor', body: '{}' },
    options,
  );
  progress(`  ${Math.round(http.rps)}/s`);
  progress('ceiling floor-verify');
  const verify = await floorVerify(options, input);
  progress(`  ${Math.round(verify.rps)}/s`);
  progress('ceiling floor-sign');
  const sign = await floorSign(options);
  progress(`  ${Math.round(sign.ops_per_s)}/s (${sign.method})`);
  return { floor_http: http, floor_verify: verify, floor_sign: sign };
}

/** The second pass of floor-verify and floor-sign (after the figures), merged into `first`. */
export async function remeasureCeilings(
  options: BenchOptions,
  input: FloorInput,
  first: Ceilings,
): Promise<Ceilings> {
  progress('ceilings again: floor-verify');
  const verify = await floorVerify(options, input);
  progress(`  ${Math.round(verify.rps)}/s`);
  progress('ceilings again: floor-sign');
  const sign = await floorSign(options);
  progress(`  ${Math.round(sign.ops_per_s)}/s (${sign.method})`);
  const firstSign = first.floor_sign;
  return {
    floor_http: first.floor_http,
    floor_verify: better(first.floor_verify, verify),
    floor_sign: {
      ...(sign.ops_per_s > firstSign.ops_per_s ? sign : firstSign),
      passes: [...firstSign.passes, ...sign.passes],
    },
  };
}
