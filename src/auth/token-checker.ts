/**
 * What the prescription service asks of a token service (SPEC.md §5): who is behind a bearer
 * token. Implementations: embedded, HTTP (external provider), cached.
 */
import type { Principal } from './principal.js';

/** Checks bearer tokens. */
export interface TokenChecker {
  /**
   * The principal of an active token, `undefined` when the token is inactive; rejects with
   * `service_unavailable` when the token service cannot answer (never read as either).
   */
  check(token: string): Promise<Principal | undefined>;
}
