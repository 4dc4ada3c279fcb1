/**
 * The failure budget of client authentication (OWASP API4): within a window, an address and a
 * client id may each have only so many attempts with wrong credentials, counting those still being
 * checked; past that, 429 with `Retry-After` until the window has passed. It is checked before the
 * secret is hashed, so a refused attempt costs no hashing, and long before the hashing queue
 * (`./scrypt-pool.ts`) fills: one address gets fewer hashes than the queue holds.
 *
 * Successful attempts are not counted. Unknown client ids are counted as known ones are (the
 * budget is consulted before the store), so a 429 tells nothing about which ids exist. The budget
 * of a client id shared by many addresses is larger than an address's, so no single address can
 * lock a client out. Created by the runtime; bounded in memory (the least recently seen keys are
 * forgotten first).
 */
import { ErxError } from '../errors.js';
import { LruCache } from '../lru-cache.js';

/** Wrong or pending attempts one address may have per window. */
export const FAILURES_PER_ADDRESS = 10;
/** Wrong or pending attempts one client id may have per window, from all addresses together. */
export const FAILURES_PER_CLIENT = 20;
/** The window, ms. */
export const FAILURE_WINDOW_MS = 10_000;
/** Addresses and client ids remembered, each. */
const DEFAULT_MAX_KEYS = 10_000;

export interface FailureBudgetOptions {
  /** Default {@link FAILURES_PER_ADDRESS}. */
  perAddress?: number;
  /** Default {@link FAILURES_PER_CLIENT}. */
  perClient?: number;
  /** Default {@link FAILURE_WINDOW_MS}. */
  windowMs?: number;
  /** Addresses and client ids remembered, each (default 10,000). */
  maxKeys?: number;
  /** Clock, unix ms (tests move it). */
  now?: () => number;
}

/** One attempt under way: say how it ended. */
export interface BudgetedAttempt {
  /** `true` when the credentials were wrong (counted); `false` on success or an outage. */
  end(wrongCredentials: boolean): void;
}

interface Tally {
  /** Unix ms at which the window began. */
  start: number;
  /** Wrong attempts in the window. */
  failures: number;
  /** Attempts being checked now. */
  running: number;
}

interface Key {
  readonly tallies: LruCache<Tally>;
  readonly key: string;
  readonly limit: number;
}

/** Failure budgets per address and per client id; see the module comment. */
export class FailureBudget {
  readonly #addresses: LruCache<Tally>;
  readonly #clients: LruCache<Tally>;
  readonly #perAddress: number;
  readonly #perClient: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: FailureBudgetOptions = {}) {
    const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.#addresses = new LruCache(maxKeys);
    this.#clients = new LruCache(maxKeys);
    this.#perAddress = options.perAddress ?? FAILURES_PER_ADDRESS;
    this.#perClient = options.perClient ?? FAILURES_PER_CLIENT;
    this.#windowMs = options.windowMs ?? FAILURE_WINDOW_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Starts an attempt of `clientId` from `address` (undefined: a call from inside erx, counted
   * per client only); throws `too_many_requests` with `retryAfter` when either budget is used up.
   */
  begin(address: string | undefined, clientId: string): BudgetedAttempt {
    const now = this.#now();
    const keys: Key[] = [{ tallies: this.#clients, key: clientId, limit: this.#perClient }];
    if (address !== undefined) {
      keys.push({ tallies: this.#addresses, key: address, limit: this.#perAddress });
    }
    let waitMs = 0;
    for (const { tallies, key, limit } of keys) {
      const tally = this.#current(tallies, key, now);
      if (tally === undefined || tally.failures + tally.running < limit) continue;
      // Used up by failures: until the window ends. By attempts still running: a moment.
      waitMs = Math.max(waitMs, tally.failures >= limit ? tally.start + this.#windowMs - now : 1);
    }
    if (waitMs > 0) {
      throw new ErxError('too_many_requests', 'Too many failed client authentications.', {
        retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
      });
    }
    for (const { tallies, key } of keys) {
      const tally = this.#current(tallies, key, now);
      if (tally === undefined) tallies.set(key, { start: now, failures: 0, running: 1 });
      else tally.running++;
    }
    let ended = false;
    return {
      end: (wrongCredentials) => {
        if (ended) return;
        ended = true;
        for (const { tallies, key } of keys) this.#end(tallies, key, wrongCredentials);
      },
    };
  }

  /** The tally of `key` with its window brought up to `now`. */
  #current(tallies: LruCache<Tally>, key: string, now: number): Tally | undefined {
    const tally = tallies.get(key);
    if (tally !== undefined && now >= tally.start + this.#windowMs) {
      tally.start = now;
      tally.failures = 0;
    }
    return tally;
  }

  #end(tallies: LruCache<Tally>, key: string, wrongCredentials: boolean): void {
    // Forgotten meanwhile (the bound): the attempt no longer counts anywhere.
    const tally = this.#current(tallies, key, this.#now());
    if (tally === undefined) return;
    tally.running = Math.max(0, tally.running - 1);
    if (wrongCredentials) tally.failures++;
    if (tally.failures === 0 && tally.running === 0) tallies.delete(key);
  }
}
