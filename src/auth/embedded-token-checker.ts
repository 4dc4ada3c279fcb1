/**
 * The token checker of the embedded token service: a direct store lookup, no HTTP round trip,
 * under the pepper the token service issued with (`./access-token.ts`).
 */
import type { Store } from '../store/types.js';
import { tokenTagged } from './access-token.js';
import { findActiveToken } from './find-active-token.js';
import type { Pepper } from './pepper.js';
import type { Principal } from './principal.js';
import type { TokenChecker } from './token-checker.js';

export interface EmbeddedTokenCheckerOptions {
  /** Clock, unix ms (tests freeze it). */
  now?: () => number;
}

/** Checks tokens issued by the embedded token service against the store. */
export class EmbeddedTokenChecker implements TokenChecker {
  readonly #store: Store;
  readonly #pepper: Pepper;
  readonly #now: () => number;

  constructor(store: Store, pepper: Pepper, options: EmbeddedTokenCheckerOptions = {}) {
    this.#store = store;
    this.#pepper = pepper;
    this.#now = options.now ?? Date.now;
  }

  /** Whether `token` carries the tag of this pepper's tokens (one MAC, no lookup). */
  mayBeIssued(token: string): boolean {
    return tokenTagged(this.#pepper, token);
  }

  /** The principal of an active embedded token; `undefined` when unknown or expired. */
  async check(token: string): Promise<Principal | undefined> {
    const found = await findActiveToken(this.#store, this.#pepper, token, this.#now());
    if (found === undefined) return undefined;
    const { client } = found;
    return {
      sub: client.sub,
      name: client.name,
      role: client.role,
      clientId: client.clientId,
      expiresAt: Math.floor(found.token.expiresAt / 1000),
    };
  }
}
