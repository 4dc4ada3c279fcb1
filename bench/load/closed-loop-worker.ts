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

interface Run {
  result: autocannon.Result;
  histogram: ReturnType<typeof latencyHistogram>;
}

function run(seconds: number): Promise<Run> {
  const histogram = latencyHistogram();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            setupRequest: (request) => {
              const next = requestAt(job.plan, sequence++);
              return { ...request, ...next };
            },
          },
        ],
      },
      (error: unknown, result) => (error ? reject(error) : resolve({ result, histogram })),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) recordMs(histogram, responseTime);
    });
  });
}

if (job.warmupSeconds > 0) await run(job.warmupSeconds);
const { result, histogram } = await run(job.seconds);
const statusCounts: Record<string, number> = {};
for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
  statusCounts[code] = stats.count ?? 0;
}
const answer: ClosedLoopResult = {
  rps: result['2xx'] / result.duration,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  seconds: result.duration,
  latency: summarise(histogram),
  statusCounts,
  issued: sequence - job.offset,
};
parentPort!.postMessage(answer);
