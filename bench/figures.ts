/**
 * The figures of the issue, each a closed-loop run against erx after one checked request (the bench
 * must measure a service that answers correctly, not one that fails fast; a run with any answer
 * other than 2xx, warm-up included, fails instead of becoming a figure): verify anonymous, verify
 * with transactions on a 10-event chain, partial dispense on distinct prescriptions, create
 * (`output-format=data`), and, on a scale set, verify of chains verified once before erx was
 * restarted and never since (the restart is `sets.ts`'s).
 */
import type { Manifest } from './data/dataset.js';
import { BULK_CHAIN_EVENTS, VERIFY_CHAIN_EVENTS } from './data/dataset.js';
import type { SampleDocument } from './data/document.js';
import { closedLoop } from './load/closed-loop.js';
import type { LatencySummary } from './load/latency.js';
import type { PlannedRequest, RequestPlan } from './load/request-plan.js';
import { poolSize, requestAt } from './load/request-plan.js';
import { requireBodies, requireServed } from './load/served.js';

export type FigureName = 'verify_anon' | 'verify_tx10' | 'dispense' | 'create' | 'verify_cold';

/**
 * One figure: its best pass (the one with the most requests/s) with that pass's latencies and CPU
 * time; peak RSS, errors and status counts are those of every pass together.
 */
export interface Figure {
  readonly rps: number;
  readonly p50_ms: number;
  readonly p90_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
  /** Peak RSS of the erx process during this figure (warm-up included), MB. */
  readonly peak_rss_mb: number;
  /** Share of the machine's CPU used by processes other than the bench and erx meanwhile. */
  readonly foreign_cpu: number;
  /** erx CPU time per request, warm-up included (hardly changed by a busy neighbour). */
  readonly cpu_us_per_request: number;
  /**
   * The load generator's CPU time per request (the bench process), warm-up included: on a small
   * machine it shares the cores with erx, so a larger answer lowers the figure through it too.
   */
  readonly load_cpu_us_per_request: number;
  readonly ok: number;
  readonly errors: number;
  readonly seconds: number;
  readonly status_counts: Record<string, number>;
  /** How often the pool of distinct prescriptions was gone through (0: every one distinct). */
  readonly pool_wraps: number;
  /** Requests/s of each pass, in the order measured. */
  readonly passes: number[];
}

/** A running erx with its callers' `Authorization` headers. */
export interface ErxTarget {
  readonly url: string;
  readonly prescriber: string;
  readonly pharmacist: string;
  /** Starts watching erx; the returned function ends it and answers what was seen. */
  readonly watch: () => () => Watched;
}

/** What was seen of the machine while a figure ran. */
export interface Watched {
  /** Peak RSS of erx, MB. */
  readonly peakRssMb: number;
  /** Share of the machine other processes used (0–1): above a few percent, the figure is low. */
  readonly foreignCpu: number;
  /** CPU seconds erx used. */
  readonly erxCpuSeconds: number;
  /** CPU seconds the bench process (the load generator) used. */
  readonly loadCpuSeconds: number;
}

export interface FigureSettings {
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly seconds: number;
}

/** How far each pool of distinct prescriptions has been used in this data directory. */
export interface PoolCursor {
  dispense: number;
  cold: number;
}

interface Check {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function send(url: string, planned: PlannedRequest): Promise<Check> {
  const response = await fetch(`${url}${planned.path}`, {
    method: planned.method,
    headers: planned.headers,
    body: planned.body,
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

/**
 * Verifies each of `links` once, eight at a time, and throws unless every answer is valid. The
 * verify figures prime their working set so the chain memo is warm however short the warm-up (a
 * cold chain of 10 events costs 10 ES384 verifications); the cold figure primes its chains with
 * `authorization` before erx is restarted (`sets.ts`).
 */
export async function prime(
  url: string,
  links: readonly string[],
  authorization?: string,
): Promise<void> {
  const plan: RequestPlan = { kind: 'verify', path: '/ePrescription/verify', links, authorization };
  let next = 0;
  let failed: Check | undefined;
  const lane = async (): Promise<void> => {
    while (next < links.length && failed === undefined) {
      const check = await send(url, requestAt(plan, next++));
      if (check.status !== 200 || check.body.valid !== true) failed = check;
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  if (failed !== undefined) {
    throw new Error(
      `priming: a verify failed: ${failed.status} ${JSON.stringify(failed.body).slice(0, 400)}`,
    );
  }
}

function expect(condition: boolean, figure: FigureName, check: Check): void {
  if (!condition) {
    throw new Error(
      `${figure}: the checked request failed: ${check.status} ${JSON.stringify(check.body).slice(0, 400)}`,
    );
  }
}

/** The plan of a figure, and the check of its first request. */
function planFor(
  figure: FigureName,
  target: ErxTarget,
  manifest: Manifest,
  sample: SampleDocument,
  cursor: PoolCursor,
): { plan: RequestPlan; offset: number; verifyAnswer: (check: Check) => boolean } {
  const path = '/ePrescription/verify';
  const events = (check: Check): number =>
    (check.body.events as unknown[] | undefined)?.length ?? -1;
  switch (figure) {
    case 'verify_anon':
      return {
        plan: { kind: 'verify', path, links: manifest.verifyLinks },
        offset: 0,
        verifyAnswer: (c) =>
          c.status === 200 && c.body.valid === true && c.body.events === undefined,
      };
    case 'verify_tx10':
      return {
        plan: {
          kind: 'verify',
          path,
          links: manifest.verifyLinks,
          authorization: target.pharmacist,
        },
        offset: 0,
        verifyAnswer: (c) =>
          c.status === 200 && c.body.valid === true && events(c) === VERIFY_CHAIN_EVENTS,
      };
    case 'verify_cold':
      return {
        plan: { kind: 'verify', path, links: manifest.coldLinks, authorization: target.pharmacist },
        offset: cursor.cold,
        verifyAnswer: (c) =>
          c.status === 200 && c.body.valid === true && events(c) === BULK_CHAIN_EVENTS,
      };
    case 'dispense':
      return {
        plan: {
          kind: 'dispense',
          ids: manifest.dispenseIds,
          medicamentId: sample.medicamentId,
          authorization: target.pharmacist,
        },
        offset: cursor.dispense,
        verifyAnswer: (c) => c.status === 200 && c.body.type === 'partial_dispense',
      };
    case 'create':
      return {
        plan: { kind: 'create', templateText: sample.text, authorization: target.prescriber },
        offset: 0,
        verifyAnswer: (c) => c.status === 200 && typeof c.body.SignedPrescriptionData === 'string',
      };
  }
}

function advance(figure: FigureName, cursor: PoolCursor, by: number): void {
  if (figure === 'dispense') cursor.dispense += by;
  if (figure === 'verify_cold') cursor.cold += by;
}

function toFigure(
  latency: LatencySummary,
): Pick<Figure, 'p50_ms' | 'p90_ms' | 'p99_ms' | 'max_ms'> {
  return {
    p50_ms: latency.p50Ms,
    p90_ms: latency.p90Ms,
    p99_ms: latency.p99Ms,
    max_ms: latency.maxMs,
  };
}

/**
 * A figure measured again: its best pass, as a ceiling is the best of its passes. On a machine
 * whose speed moves by tens of per cent within a run, one pass measures the moment as much as erx;
 * taking the best pass on both sides of a ratio measures each at the machine's best. Nothing is
 * dropped: the peak RSS is the highest, and errors and status counts are those of every pass.
 */
export function bestPass(earlier: Figure | undefined, next: Figure): Figure {
  if (earlier === undefined) return next;
  const best = next.rps > earlier.rps ? next : earlier;
  const statusCounts = { ...earlier.status_counts };
  for (const [status, count] of Object.entries(next.status_counts)) {
    statusCounts[status] = (statusCounts[status] ?? 0) + count;
  }
  return {
    ...best,
    peak_rss_mb: Math.max(earlier.peak_rss_mb, next.peak_rss_mb),
    errors: earlier.errors + next.errors,
    status_counts: statusCounts,
    pool_wraps: Math.max(earlier.pool_wraps, next.pool_wraps),
    passes: [...earlier.passes, ...next.passes],
  };
}

/** What a mutating answer carries when a checkpoint of the transparency log included its event. */
export const RECEIPT_IN_BODY = '"receipt":"';

/**
 * Runs one pass of a figure: a checked request, then warm-up and measurement with autocannon.
 * With `receipts`, every answer, the checked one and the warm-up's included, must carry a receipt
 * (true: the log is on) or none (false: `ERX_LOG=off`), or the pass fails as on a status not 2xx.
 */
export async function runFigure(
  figure: FigureName,
  target: ErxTarget,
  manifest: Manifest,
  sample: SampleDocument,
  cursor: PoolCursor,
  settings: FigureSettings,
  receipts?: boolean,
): Promise<Figure> {
  const { plan, offset, verifyAnswer } = planFor(figure, target, manifest, sample, cursor);
  const check = await send(target.url, requestAt(plan, offset));
  expect(verifyAnswer(check), figure, check);
  if (receipts !== undefined)
    expect((typeof check.body.receipt === 'string') === receipts, figure, check);
  if (figure === 'create') {
    // The created link must verify like any other: the service answers what it stored.
    const link = String(check.body.SignedPrescriptionData);
    const created = await send(
      target.url,
      requestAt({ kind: 'verify', path: '/ePrescription/verify', links: [link] }, 0),
    );
    expect(created.status === 200 && created.body.valid === true, figure, created);
  }
  advance(figure, cursor, 1);
  if (figure === 'verify_anon' || figure === 'verify_tx10')
    await prime(target.url, manifest.verifyLinks);
  // A cold chain is verified at most once per start: the pass ends when the pool is used up.
  const limit = figure === 'verify_cold' ? poolSize(plan) - (offset + 1) : undefined;

  const stopWatching = target.watch();
  const result = await closedLoop({
    url: target.url,
    plan,
    connections: settings.connections,
    warmupSeconds: settings.warmupSeconds,
    seconds: settings.seconds,
    offset: offset + 1,
    limit,
    ...(receipts === undefined
      ? {}
      : { expectInBody: { text: RECEIPT_IN_BODY, present: receipts } }),
  });
  const seen = stopWatching();
  advance(figure, cursor, result.issued);
  // Verifies cycle through their working set on purpose; dispense and cold verify must not.
  const pool = figure === 'dispense' || figure === 'verify_cold' ? poolSize(plan) : 0;
  const used = figure === 'dispense' ? cursor.dispense : cursor.cold;
  requireServed(
    figure,
    result,
    figure === 'dispense'
      ? `one package per call of ${sample.dispensable} prescribed, round ${Math.ceil(used / pool)} of ${pool} prescriptions (each loaded with ${BULK_CHAIN_EVENTS - 1} dispensed)`
      : '',
  );
  if (receipts !== undefined)
    requireBodies(
      figure,
      result,
      receipts ? 'each must carry a receipt' : 'none may carry a receipt',
    );
  return {
    rps: result.rps,
    ...toFigure(result.latency),
    peak_rss_mb: seen.peakRssMb,
    foreign_cpu: seen.foreignCpu,
    cpu_us_per_request: (seen.erxCpuSeconds * 1e6) / result.issued,
    load_cpu_us_per_request: (seen.loadCpuSeconds * 1e6) / result.issued,
    ok: result.ok,
    errors: result.non2xx + result.errors,
    seconds: result.seconds,
    status_counts: result.statusCounts,
    pool_wraps:
      pool === 0 || (figure.startsWith('verify_') && figure !== 'verify_cold')
        ? 0
        : Math.floor((used - 1) / pool),
    passes: [result.rps],
  };
}
