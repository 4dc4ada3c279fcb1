/**
 * The HTTP fuzz loop: starts erx, sends generated requests one after the other
 * (every n-th over a real socket, the rest through `app.inject()`), checks each answer, learns
 * ids and links from accepted calls, and reports counts, failures, memory and pollution.
 */
import { MED_A, MED_B } from '../../support/fixtures.js';
import { startTestServer } from '../../support/server.js';
import type { TestServer } from '../../support/server.js';
import { validDocument } from './documents.js';
import { answerProblem, memoryMb, pollutionProbe, prototypeSnapshot } from './oracle.js';
import type { FuzzAnswer } from './oracle.js';
import { Prng } from './prng.js';
import { generateRequest } from './requests.js';
import type { FuzzContext, FuzzRequest } from './fuzz-request.js';
import { sendInject, sendSocket } from './transport.js';
import { Watchdog } from './watchdog.js';

export interface FuzzOptions {
  /** Requests of the whole run, over all shards. */
  requests: number;
  seed: number;
  socketEvery: number;
  /** This process sends requests `shard`, `shard + shards`, ... of the run. */
  shard: number;
  shards: number;
}

/** One bad answer, in a form that can be pasted into a test (bodies cut). */
export interface Failure {
  index: number;
  problem: string;
  via: 'inject' | 'socket';
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  answer: string;
}

export interface FuzzReport {
  options: FuzzOptions;
  sent: number;
  viaSocket: number;
  seconds: number;
  cpuSeconds: number;
  byClass: Record<string, number>;
  byRoute: Record<string, number>;
  msByRoute: Record<string, number>;
  slowestMs: number;
  failureCount: number;
  problems: Record<string, number>;
  failures: Failure[];
  warmUp: number;
  memory: { rss: number[]; heap: number[]; rssGrowth: number; heapGrowth: number };
  prototypesChanged: boolean;
  pollution: string[];
  healthStatus: number;
  /** 2xx answers by route. */
  acceptedByRoute: Record<string, number>;
}

/** Marks the report line in the output of `http-fuzz-child.ts`. */
export const REPORT_MARKER = 'ERX_FUZZ_REPORT ';

const MED_IDS = [MED_A, MED_B];
const POOL_SIZE = 64;
/** A request answered later than this counts as a hang. */
const HANG_MS = 10_000;
/** Memory is sampled this many times over the run. */
const SAMPLES = 20;

function describeFailure(
  index: number,
  problem: string,
  via: Failure['via'],
  request: FuzzRequest,
  answer: FuzzAnswer | undefined,
): Failure {
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? `base64:${request.body.subarray(0, 512).toString('base64')}`
        : request.body.slice(0, 1024);
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [k, String(v).slice(0, 200)]),
  );
  return {
    index,
    problem,
    via,
    request: {
      method: request.method,
      url: request.url.slice(0, 300),
      headers,
      ...(body === undefined ? {} : { body }),
    },
    answer: answer ? `${answer.status} ${answer.body.toString('utf8').slice(0, 300)}` : 'none',
  };
}

/** Learns prescription ids, links and event ids from accepted calls. */
function learn(ctx: FuzzContext, request: FuzzRequest, answer: FuzzAnswer): void {
  if (answer.status !== 200) return;
  if (request.family === 'create') {
    const header = answer.headers['x-prescription-id'];
    let link: string | undefined;
    let id = typeof header === 'string' ? header : undefined;
    if (String(answer.headers['content-type']).startsWith('application/json')) {
      const json = JSON.parse(answer.body.toString('utf8')) as Record<string, string>;
      link = json.SignedPrescriptionData;
      id = json.prescription_id;
    }
    if (id === undefined) return;
    ctx.pool.push({ id, link, medIds: MED_IDS, eventIds: [] });
    if (ctx.pool.length > POOL_SIZE) ctx.pool.shift();
  } else if (request.family === 'dispense') {
    const json = JSON.parse(answer.body.toString('utf8')) as { id: string; reference: string };
    ctx.pool.find((t) => t.id === json.reference)?.eventIds.push(json.id);
  }
}

function contextFor(server: TestServer): FuzzContext {
  const keys = server.runtime.linkKeys;
  return {
    callers: {
      doctor: server.doctor.token,
      doctor2: server.doctor2.token,
      pharmacist: server.pharmacist.token,
      pharmacist2: server.pharmacist2.token,
      clientId: server.pharmacist.clientId,
      secret: server.pharmacist.secret,
    },
    pool: [],
    sign: (part) => Buffer.from(keys.sign(Buffer.from(part, 'utf8'))).toString('hex'),
    base: server.runtime.config.prescriptionUrl,
    // Each accepted create or append signs an event: a small share keeps the run short.
    validShare: 0.015,
    // Each full set of client credentials runs scrypt (tens of ms).
    credentialShare: 0.01,
  };
}

/** A few prescriptions to act on from the first request; later ones come from fuzzed creates. */
async function seedPool(server: TestServer, ctx: FuzzContext, seed: number): Promise<void> {
  for (let n = 0; n < 8; n++) {
    const request: FuzzRequest = {
      family: 'create',
      method: 'POST',
      url: '/ePrescription/create?output-format=data',
      headers: {
        authorization: `Bearer acs:${server.doctor.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(validDocument(new Prng(seed + n))),
    };
    const answer = await sendInject(server.runtime.app, request);
    if (answer.status !== 200)
      throw new Error(`seeding: ${answer.status} ${answer.body.toString()}`);
    learn(ctx, request, answer);
  }
}

const median3 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1] ?? NaN;

/** Runs the fuzz loop against a fresh server and reports what happened. */
export async function runHttpFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const server = await startTestServer();
  try {
    const ctx = contextFor(server);
    await seedPool(server, ctx, options.seed);
    const app = server.runtime.app;
    const port = Number(new URL(server.url).port);
    const prototypesBefore = prototypeSnapshot();
    const own = Math.ceil((options.requests - options.shard) / options.shards);
    const report: FuzzReport = {
      options,
      sent: 0,
      viaSocket: 0,
      seconds: 0,
      cpuSeconds: 0,
      byClass: {},
      byRoute: {},
      msByRoute: {},
      slowestMs: 0,
      failureCount: 0,
      problems: {},
      failures: [],
      warmUp: Math.floor(own / 5),
      memory: { rss: [], heap: [], rssGrowth: NaN, heapGrowth: NaN },
      prototypesChanged: false,
      pollution: [],
      healthStatus: 0,
      acceptedByRoute: {},
    };
    const sampleEvery = Math.max(1, Math.floor(own / SAMPLES));
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const watchdog = new Watchdog(HANG_MS);

    for (let index = options.shard; index < options.requests; index += options.shards) {
      if (report.sent > 0 && report.sent % sampleEvery === 0) {
        const memory = memoryMb();
        report.memory.rss.push(memory.rss);
        report.memory.heap.push(memory.heap);
      }
      // One generator per request: request n is the same for a seed whatever came before it
      // (except for the ids and links it picks from what the server answered).
      const rng = new Prng((options.seed ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
      const request = generateRequest(rng, ctx);
      const via = index % options.socketEvery === options.socketEvery - 1 ? 'socket' : 'inject';
      const t0 = performance.now();
      let answer: FuzzAnswer | undefined;
      let problem: string | undefined;
      try {
        answer = await watchdog.watch(
          via === 'socket' ? sendSocket(port, request) : sendInject(app, request),
        );
        problem = answerProblem(request.method, answer);
      } catch (error) {
        problem = `no answer: ${(error as Error).message}`;
      }
      const took = performance.now() - t0;
      report.slowestMs = Math.max(report.slowestMs, took);
      report.msByRoute[request.family] = (report.msByRoute[request.family] ?? 0) + took;
      report.sent++;
      if (via === 'socket') report.viaSocket++;
      report.byRoute[request.family] = (report.byRoute[request.family] ?? 0) + 1;
      const cls = answer ? `${Math.floor(answer.status / 100)}xx` : 'none';
      report.byClass[cls] = (report.byClass[cls] ?? 0) + 1;
      if (problem !== undefined) {
        report.failureCount++;
        const kind = `${via} ${request.family} ${answer?.status ?? '-'}: ${problem}`;
        report.problems[kind] = (report.problems[kind] ?? 0) + 1;
        if (report.failures.length < 10) {
          report.failures.push(describeFailure(index, problem, via, request, answer));
        }
      } else if (answer) {
        if (cls === '2xx') {
          report.acceptedByRoute[request.family] =
            (report.acceptedByRoute[request.family] ?? 0) + 1;
        }
        learn(ctx, request, answer);
      }
    }

    watchdog.stop();
    const cpu = process.cpuUsage(cpuStarted);
    report.seconds = (performance.now() - started) / 1000;
    report.cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const memory = memoryMb();
    report.memory.rss.push(memory.rss);
    report.memory.heap.push(memory.heap);
    // The allocator's footprint swings by tens of MB from one sample to the next (large bodies
    // come and go): the median of three samples right after the warm-up (a fifth of the run)
    // is compared with the median of the last three.
    const first = SAMPLES / 5 - 1;
    const growth = (xs: number[]) => median3(xs.slice(-3)) - median3(xs.slice(first, first + 3));
    report.memory.rssGrowth = growth(report.memory.rss);
    report.memory.heapGrowth = growth(report.memory.heap);
    report.prototypesChanged = prototypeSnapshot() !== prototypesBefore;
    report.pollution = pollutionProbe();
    const health = await sendSocket(port, {
      family: 'other',
      method: 'GET',
      url: '/healthz',
      headers: {},
    });
    report.healthStatus = health.status;
    return report;
  } finally {
    await server.close();
  }
}
