/**
 * The closed-loop load generator: autocannon with a fixed number of connections, each sending its
 * next request as soon as the previous one is answered. Runs in its own thread so that its work is
 * scheduled like a separate client, not interleaved with the bench's bookkeeping.
 */
import autocannon from 'autocannon';
import { parentPort, workerData } from 'node:worker_threads';
import type { ClosedLoopJob, ClosedLoopResult } from './closed-loop-protocol.js';
import { latencyHistogram, recordMs, summarise } from './latency.js';
import { requestAt } from './request-plan.js';

const job = workerData as ClosedLoopJob;
let sequence = job.offset;
const expected = job.expectInBody;
// A plain substring test: the generator shares the cores with erx, and both sides of a comparison
// pay it alike.
const verifyBody =
  expected === undefined
    ? undefined
    : (body: string | Buffer | undefined): boolean =>
        String(body ?? '').includes(expected.text) === expected.present;

interface Run {
  result: autocannon.Result;
  histogram: ReturnType<typeof latencyHistogram>;
  /** The run's length: to its last answer when it sent all it may, else autocannon's. */
  seconds: number;
}

/** Runs for `seconds`, or until `most` requests are sent (autocannon ends it at its next tick). */
function run(seconds: number, most: number | undefined): Promise<Run> {
  if (most !== undefined && most < job.connections) {
    throw new Error(`${most} requests left in the pool, fewer than ${job.connections} connections`);
  }
  const histogram = latencyHistogram();
  const startedAt = performance.now();
  let answered = 0;
  let lastAnswerAt = startedAt;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: seconds,
        ...(most === undefined ? {} : { maxOverallRequests: most }),
        timeout: 30,
        ...(verifyBody === undefined ? {} : { verifyBody }),
        requests: [
          {
            setupRequest: (request) => {
              const next = requestAt(job.plan, sequence++);
              return { ...request, ...next };
            },
          },
        ],
      },
      (error: unknown, result) => {
        if (error) return reject(error);
        const exhausted = most !== undefined && answered >= most;
        const length = exhausted ? (lastAnswerAt - startedAt) / 1000 : result.duration;
        resolve({ result, histogram, seconds: length });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      answered++;
      lastAnswerAt = performance.now();
      if (status >= 200 && status < 300) recordMs(histogram, responseTime);
    });
  });
}

function statusCountsOf(result: autocannon.Result): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    counts[code] = stats.count ?? 0;
  }
  return counts;
}

const warmupMost =
  job.limit === undefined ? undefined : Math.max(job.connections, Math.floor(job.limit / 10));
const warmup = job.warmupSeconds > 0 ? await run(job.warmupSeconds, warmupMost) : undefined;
const measuredMost = job.limit === undefined ? undefined : job.offset + job.limit - sequence;
const { result, histogram, seconds } = await run(job.seconds, measuredMost);
const statusCounts = statusCountsOf(result);
const answer: ClosedLoopResult = {
  rps: result['2xx'] / seconds,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  seconds,
  latency: summarise(histogram),
  statusCounts,
  warmupNon2xx: warmup?.result.non2xx ?? 0,
  warmupStatusCounts: warmup === undefined ? {} : statusCountsOf(warmup.result),
  issued: sequence - job.offset,
  bodyMismatches: (warmup?.result.mismatches ?? 0) + result.mismatches,
};
parentPort!.postMessage(answer);
