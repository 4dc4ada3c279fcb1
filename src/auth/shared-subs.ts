/**
 * One `sub` has one role (SPEC.md §5 "Roles and authentication"): the `sub` is the actor written
 * into every event and compared for who issued, locked or dispensed. Clients of both roles with
 * one `sub` would make one actor both prescriber and pharmacist of the same prescriptions. The
 * token service refuses such a registration; this finds the pairs a store made before holds.
 */
import type { ClientRow, Role } from '../store/types.js';

/** A `sub` held by clients of both roles, with their ids by role. */
export interface SharedSub {
  readonly sub: string;
  readonly prescribers: readonly string[];
  readonly pharmacists: readonly string[];
}

/** Every `sub` of `clients` held by clients of both roles, in the order of `clients`. */
export function subsOfBothRoles(
  clients: readonly Pick<ClientRow, 'clientId' | 'role' | 'sub'>[],
): SharedSub[] {
  const bySub = new Map<string, Record<Role, string[]>>();
  for (const client of clients) {
    let roles = bySub.get(client.sub);
    if (roles === undefined) {
      roles = { prescriber: [], pharmacist: [] };
      bySub.set(client.sub, roles);
    }
    roles[client.role].push(client.clientId);
  }
  return [...bySub]
    .filter(([, roles]) => roles.prescriber.length > 0 && roles.pharmacist.length > 0)
    .map(([sub, roles]) => ({
      sub,
      prescribers: roles.prescriber,
      pharmacists: roles.pharmacist,
    }));
}
