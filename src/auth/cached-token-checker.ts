/**
 * An in-memory cache in front of a token checker (SPEC.md §5): active tokens are remembered until
 * `min(expires_in, 60 s)`, inactive ones for 5 s, failures (503) not at all. Keys are SHA-256 of
 * the token, so a heap dump holds no usable token.
 *
 * Past those 60 s an active token stays known (not trusted) until it expires: {@link
 * CachedTokenChecker.checkKnown} asks the inner checker again for it, and for no other token.
 * Active and inactive tokens are held apart, so a flood of unknown tokens cannot push the known
 * ones out.
 */
import { tokenCacheKey } from './access-token.js';
import type { Principal } from './principal.js';
import type { TokenChecker } from './token-checker.js';

export interface CachedTokenCheckerOptions {
  /** Clock, unix ms (tests move it). */
  now?: () => number;
  /** Told whether each check was answered from memory (`hit`) or asked the inner checker. */
  onLookup?: (result: 'hit' | 'miss') => void;
  /** Most active tokens kept, and most inactive ones; the oldest goes first (default 10,000). */
  maxEntries?: number;
  /** Longest an active token is remembered, ms (default 60,000; SPEC.md §5). */
  positiveTtlMs?: number;
  /** How long an inactive token is remembered, ms (default 5,000; SPEC.md §5). */
  negativeTtlMs?: number;
}

interface Entry {
  principal: Principal | undefined;
  /** Unix ms after which the answer is stale and the inner checker is asked again. */
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
  // Maps keep insertion order: the first key is the oldest entry. Active tokens stay (stale past
  // `until`) until they expire; inactive ones go at `until`.
  readonly #active = new Map<string, Entry>();
  readonly #inactive = new Map<string, Entry>();
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

  /** Number of entries held (fresh or stale, active or inactive). */
  get size(): number {
    return this.#active.size + this.#inactive.size;
  }

  /** The remembered answer for `token` while fresh, else the inner checker's answer. */
  async check(token: string): Promise<Principal | undefined> {
    const key = tokenCacheKey(token);
    const fresh = this.#fresh(key);
    if (fresh !== undefined) {
      this.#onLookup('hit');
      return fresh.principal;
    }
    return this.#ask(key, token);
  }

  /**
   * The principal of `token` if this checker has seen it active and it has not expired: from
   * memory while fresh, else from the inner checker (it may have been revoked since). A token never
   * seen is asked about only when the inner checker says, without a lookup, that it may be one it
   * issued (`TokenChecker.mayBeIssued`: a fresh token of the embedded service); any other token is
   * `undefined` at once, without asking anyone, so that a caller refusing unknown tokens wholesale
   * (a flood of guesses) still serves the tokens it knows and the ones it just issued.
   */
  async checkKnown(token: string): Promise<Principal | undefined> {
    const key = tokenCacheKey(token);
    const fresh = this.#fresh(key);
    if (fresh !== undefined) {
      this.#onLookup('hit');
      return fresh.principal;
    }
    const known = this.#active.get(key);
    if (known?.principal === undefined || known.principal.expiresAt * 1000 <= this.#now()) {
      this.#active.delete(key);
      if (known === undefined && this.#inner.mayBeIssued?.(token) === true) {
        return this.#ask(key, token);
      }
      return this.#pending.get(key);
    }
    return this.#ask(key, token);
  }

  /** The inner checker's own lookup-free test (`TokenChecker.mayBeIssued`). */
  mayBeIssued(token: string): boolean {
    return this.#inner.mayBeIssued?.(token) ?? false;
  }

  /** The entry of `key` while its answer is fresh; drops what is no longer worth keeping. */
  #fresh(key: string): Entry | undefined {
    const now = this.#now();
    const inactive = this.#inactive.get(key);
    if (inactive !== undefined) {
      if (inactive.until > now) return inactive;
      this.#inactive.delete(key);
    }
    const active = this.#active.get(key);
    if (active === undefined) return undefined;
    if (active.until > now) return active;
    if (active.principal!.expiresAt * 1000 <= now) this.#active.delete(key);
    return undefined;
  }

  /** The inner checker's answer, shared by concurrent checks of one token. */
  async #ask(key: string, token: string): Promise<Principal | undefined> {
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
    // A rejection (503) propagates before anything is remembered or forgotten.
    const principal = await this.#inner.check(token);
    const now = this.#now();
    this.#active.delete(key);
    this.#inactive.delete(key);
    if (principal === undefined) {
      const until = now + this.#negativeTtlMs;
      if (until > now) this.#remember(this.#inactive, key, { principal, until });
      return principal;
    }
    const ttl = Math.min(principal.expiresAt * 1000 - now, this.#positiveTtlMs);
    if (ttl > 0) this.#remember(this.#active, key, { principal, until: now + ttl });
    return principal;
  }

  #remember(entries: Map<string, Entry>, key: string, entry: Entry): void {
    entries.delete(key);
    while (entries.size >= this.#maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
    entries.set(key, entry);
  }
}
