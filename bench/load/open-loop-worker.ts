/**
 * The open-loop load generator: call i is due at start + i/rate and is sent then, whether or not
 * earlier calls have been answered; its latency runs from the due time, so a server that falls
 * behind is charged for the queue it causes (no coordinated omission). The kinds of call are
 * interleaved by a low-discrepancy sequence, so every second carries the mix's exact shares.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ConnectionPool, requestText } from './http-connections.js';
import type { Outcome } from './http-connections.js';
import { latencyHistogram, recordMs, summarise } from './latency.js';
import type { KindResult, MixEntry, OpenLoopJob, OpenLoopResult } from './open-loop-protocol.js';
import { requestAt } from './request-plan.js';

const job = workerData as OpenLoopJob;
const target = new URL(job.url);
/**
 * The generator's connections, all opened before the schedule starts (as wrk2 does): the run
 * measures how erx answers calls, not how fast it accepts a storm of new connections. Node's
 * libuv accepts one connection per event-loop turn, so a busy server takes new connections at a
 * few dozen per second; opened lazily under overload, the generator's sockets would wait in the
 * accept queue for seconds with a call on each (docs/decisions.md, "Listen backlog 4,096").
 */
const CONNECTIONS = 512;
const pool = new ConnectionPool(target, CONNECTIONS);
const GOLDEN = (Math.sqrt(5) - 1) / 2;

interface KindState {
  entry: MixEntry;
  /** Upper end of this kind's slice of [0, 1). */
  upTo: number;
  sequence: number;
  sent: number;
  ok: number;
  errors: number;
  histogram: ReturnType<typeof latencyHistogram>;
}

const total = job.mix.reduce((sum, m) => sum + m.weight, 0);
let cumulative = 0;
const kinds: KindState[] = job.mix.map((entry) => {
  cumulative += entry.weight / total;
  return {
    entry,
    upTo: cumulative,
    sequence: entry.offset,
    sent: 0,
    ok: 0,
    errors: 0,
    histogram: latencyHistogram(),
  };
});
const all = latencyHistogram();
const statusCounts: Record<string, number> = {};
let lastAnswer = 0;
let maxSendLag = 0;

function kindFor(index: number): KindState {
  const position = (index * GOLDEN) % 1;
  return kinds.find((k) => position < k.upTo) ?? kinds[kinds.length - 1]!;
}

function send(kind: KindState, dueAt: number): void {
  const planned = requestAt(kind.entry.plan, kind.sequence++);
  kind.sent++;
  const done = (outcome: Outcome): void => {
    const now = performance.now();
    lastAnswer = Math.max(lastAnswer, now);
    const status = String(outcome);
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
      kind.ok++;
      recordMs(kind.histogram, now - dueAt);
      recordMs(all, now - dueAt);
    } else {
      kind.errors++;
    }
  };
  const request = requestText(target, planned.method, planned.path, planned.headers, planned.body);
  pool.send({ request, dueAt, done });
}

/** Opens every connection with a call to `/healthz` on each, all at once, and waits for them. */
async function openConnections(): Promise<void> {
  const request = requestText(target, 'GET', '/healthz', {}, '');
  const answered = Array.from(
    { length: CONNECTIONS },
    () =>
      new Promise<void>((resolve, reject) => {
        const done = (outcome: Outcome): void =>
          outcome === 200 ? resolve() : reject(new Error(`/healthz answered ${outcome}`));
        pool.send({ request, dueAt: performance.now(), done });
      }),
  );
  await Promise.all(answered);
}

await openConnections();
const sweeper = setInterval(() => pool.expire(performance.now() - job.timeoutMs), 100);
const start = performance.now() + 50;
const count = Math.round(job.rate * job.seconds);
const interval = 1000 / job.rate;
let next = 0;
await new Promise<void>((resolve) => {
  const tick = (): void => {
    const now = performance.now();
    while (next < count && start + next * interval <= now) {
      const dueAt = start + next * interval;
      maxSendLag = Math.max(maxSendLag, now - dueAt);
      send(kindFor(next), dueAt);
      next++;
    }
    if (next >= count) return resolve();
    setTimeout(tick, Math.max(0, Math.min(1, start + next * interval - performance.now())));
  };
  tick();
});
await new Promise<void>((resolve) => {
  const check = (): void => (pool.outstanding === 0 ? resolve() : void setTimeout(check, 5));
  check();
});
clearInterval(sweeper);
pool.close();

const scheduleEnd = start + count * interval;
const seconds = (Math.max(scheduleEnd, lastAnswer) - start) / 1000;
const ok = kinds.reduce((n, k) => n + k.ok, 0);
const kindResults: Record<string, KindResult> = {};
for (const k of kinds) {
  kindResults[k.entry.name] = {
    sent: k.sent,
    ok: k.ok,
    errors: k.errors,
    latency: summarise(k.histogram),
  };
}
const answer: OpenLoopResult = {
  offered: count / job.seconds,
  achieved: ok / seconds,
  sent: count,
  ok,
  errors: count - ok,
  latency: summarise(all),
  maxSendLagMs: maxSendLag,
  statusCounts,
  kinds: kindResults,
  seconds,
};
parentPort!.postMessage(answer);
