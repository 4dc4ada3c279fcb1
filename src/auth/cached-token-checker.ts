/**
 * An in-memory cache in front of a token checker (SPEC.md §5): active tokens are remembered until
 * `min(expires_in, 60 s)`, inactive ones for 5 s, failures (503) not at all. Keys are SHA-256 of
 * the token, so a heap dump holds no usable token.
 */
import { hashAccessToken } from './access-token.js';
import type { Principal } from './principal.js';
import type { TokenChecker } from './token-checker.js';

export interface CachedTokenCheckerOptions {
  /** Clock, unix ms (tests move it). */
  now?: () => number;
  /** Told whether each check was answered from memory (`hit`) or asked the inner checker. */
  onLookup?: (result: 'hit' | 'miss') => void;
  /** Most entries kept; the oldest goes first (default 10,000). */
  maxEntries?: number;
  /** Longest an active token is remembered, ms (default 60,000; SPEC.md §5). */
  positiveTtlMs?: number;
  /** How long an inactive token is remembered, ms (default 5,000; SPEC.md §5). */
  negativeTtlMs?: number;
}

interface Entry {
  principal: Principal | undefined;
  /** Unix ms after which the entry is stale. */
  until: number;
}

/** A {@link TokenChecker} that remembers answers of another one. */
export class CachedTokenChecker implements TokenChecker {
  readonly #inner: TokenChecker;
  readonly #now: () => number;
  readonly #onLookup: (result: 'hit' | 'miss') => void;
  readonly #maxEntries: number;
  readonly #positiveTtlMs: number;
  readonly #negativeTtlMs: number;
  // Map keeps insertion order: the first key is the oldest entry.
  readonly #entries = new Map<string, Entry>();
  // Concurrent checks of one token share one lookup instead of each asking the token service.
  readonly #pending = new Map<string, Promise<Principal | undefined>>();

  constructor(inner: TokenChecker, options: CachedTokenCheckerOptions = {}) {
    this.#inner = inner;
    this.#now = options.now ?? Date.now;
    this.#onLookup = options.onLookup ?? (() => undefined);
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.#positiveTtlMs = options.positiveTtlMs ?? 60_000;
    this.#negativeTtlMs = options.negativeTtlMs ?? 5_000;
  }

  /** Number of entries held (fresh or stale). */
  get size(): number {
    return this.#entries.size;
  }

  /** The remembered answer for `token` while fresh, else the inner checker's answer. */
  async check(token: string): Promise<Principal | undefined> {
    const key = hashAccessToken(token);
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      if (entry.until > this.#now()) {
        this.#onLookup('hit');
        return entry.principal;
      }
      this.#entries.delete(key);
    }
    const pending = this.#pending.get(key);
    if (pending !== undefined) {
      this.#onLookup('hit');
      return pending;
    }
    this.#onLookup('miss');
    const lookup = this.#lookup(key, token);
    this.#pending.set(key, lookup);
    try {
      return await lookup;
    } finally {
      this.#pending.delete(key);
    }
  }

  async #lookup(key: string, token: string): Promise<Principal | undefined> {
    // A rejection (503) propagates before anything is remembered.
    const principal = await this.#inner.check(token);
    const now = this.#now();
    const ttl =
      principal === undefined
        ? this.#negativeTtlMs
        : Math.min(principal.expiresAt * 1000 - now, this.#positiveTtlMs);
    if (ttl > 0) this.#remember(key, { principal, until: now + ttl });
    return principal;
  }

  #remember(key: string, entry: Entry): void {
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, entry);
  }
}
