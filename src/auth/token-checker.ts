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
  /**
   * Whether `token` may be one this service issued, told without a lookup (the embedded service's
   * tag, `./access-token.ts`); absent where tokens carry no such mark (an external service).
   */
  mayBeIssued?(token: string): boolean;
}
