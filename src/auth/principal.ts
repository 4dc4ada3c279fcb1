/**
 * Who is calling: the client behind an active bearer token, as the prescription service needs it
 * (SPEC.md §5 "Roles and authentication").
 */
import type { Role } from '../store/types.js';

/** The caller behind an active token. */
export interface Principal {
  /** Actor id (e.g. `HIN|pharma1`): event `actor` and the owner of the caller's events. */
  readonly sub: string;
  /** Display name: event `actor_name`. */
  readonly name: string;
  readonly role: Role;
  readonly clientId: string;
  /** Expiry of the token, unix seconds. */
  readonly expiresAt: number;
}
