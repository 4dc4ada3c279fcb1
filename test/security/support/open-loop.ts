/**
 * An open-loop load generator: request i is due at `start + i / rate` whatever happened to the
 * ones before, and its latency is counted from that due time, so a stalling server cannot hide
 * its stalls by slowing the client down (no coordinated omission).
 */
import { Agent, request } from 'node:http';

export interface OpenLoopOptions {
  url: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  ratePerSecond: number;
  durationMs: number;
}

export interface OpenLoopResult {
  sent: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  /** Requests that got no answer (socket errors). */
  errors: number;
  /** Latencies from due time to the end of the answer, ms, ascending. */
  latencies: number[];
  elapsedMs: number;
}

/** The `p`-th percentile (0–100) of ascending `sorted` (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Sends `ratePerSecond` requests per second for `durationMs`; resolves once all are answered. */
export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { hostname, port } = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.floor((options.ratePerSecond * options.durationMs) / 1000);
  const interval = 1000 / options.ratePerSecond;
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const pending: Promise<void>[] = [];
  const body = Buffer.from(options.body);

  const fire = (due: number): Promise<void> =>
    new Promise((resolve) => {
      const req = request(
        {
          host: hostname,
          port: Number(port),
          method: options.method,
          path: options.path,
          agent,
          headers: { ...options.headers, 'content-length': String(body.length) },
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            latencies.push(performance.now() - due);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.once('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });

  const start = performance.now();
  await new Promise<void>((done) => {
    const tick = (): void => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        pending.push(fire(start + sent * interval));
        sent += 1;
      }
      if (sent >= total) done();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(pending);
  const elapsedMs = performance.now() - start;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { sent, statuses, errors, latencies, elapsedMs };
}
