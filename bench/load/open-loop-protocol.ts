/** Messages of the open-loop load worker. */
import type { LatencySummary } from './latency.js';
import type { RequestPlan } from './request-plan.js';

/** One kind of call in the mix, with its share of the calls. */
export interface MixEntry {
  readonly name: string;
  readonly weight: number;
  readonly plan: RequestPlan;
  readonly offset: number;
}

export interface OpenLoopJob {
  readonly url: string;
  /** Calls per second, sent on schedule whatever the answers do. */
  readonly rate: number;
  readonly seconds: number;
  readonly mix: readonly MixEntry[];
  /** A call unanswered after this long counts as an error. */
  readonly timeoutMs: number;
}

export interface KindResult {
  readonly sent: number;
  readonly ok: number;
  readonly errors: number;
  readonly latency: LatencySummary;
}

export interface OpenLoopResult {
  readonly offered: number;
  /** 2xx answers per second, over the schedule or until the last answer if that came later. */
  readonly achieved: number;
  readonly sent: number;
  readonly ok: number;
  /** Non-2xx answers, connection errors and timeouts. */
  readonly errors: number;
  /** Latency from the instant each call was due (not when it left): queueing counts. */
  readonly latency: LatencySummary;
  /** Worst delay between a call's due time and its departure (the generator's own lag). */
  readonly maxSendLagMs: number;
  readonly statusCounts: Record<string, number>;
  readonly kinds: Record<string, KindResult>;
  readonly seconds: number;
}
