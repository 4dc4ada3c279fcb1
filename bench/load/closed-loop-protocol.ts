/** Messages of the closed-loop (autocannon) load worker. */
import type { LatencySummary } from './latency.js';
import type { RequestPlan } from './request-plan.js';

export interface ClosedLoopJob {
  readonly url: string;
  readonly plan: RequestPlan;
  readonly connections: number;
  /** Unmeasured run first: JIT, caches, the chain memo, the token cache. */
  readonly warmupSeconds: number;
  readonly seconds: number;
  /** First sequence number (a plan's pool continues where the last run left it). */
  readonly offset: number;
  /**
   * Requests the plan can send from `offset` before it would repeat an item, warm-up included:
   * the warm-up sends at most a tenth of them and the measurement the rest, and a run that has
   * sent its share ends early (its rate is then taken up to its last answer). None: no bound.
   */
  readonly limit?: number;
  /**
   * What every answer's body must contain (`present`) or lack: an answer that does not is counted
   * in {@link ClosedLoopResult.bodyMismatches} (the log figure's receipts). None: bodies unread.
   */
  readonly expectInBody?: { readonly text: string; readonly present: boolean };
}

export interface ClosedLoopResult {
  /** 2xx answers per second over the measured run. */
  readonly rps: number;
  readonly ok: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly seconds: number;
  /** Latency of 2xx answers. */
  readonly latency: LatencySummary;
  readonly statusCounts: Record<string, number>;
  /** Non-2xx answers of the warm-up: unmeasured, but a refusal there is as wrong as in the run. */
  readonly warmupNon2xx: number;
  readonly warmupStatusCounts: Record<string, number>;
  /** Requests issued, warm-up included (how far the plan's pool advanced). */
  readonly issued: number;
  /** Answers, warm-up included, against {@link ClosedLoopJob.expectInBody} (0 without it). */
  readonly bodyMismatches: number;
}
