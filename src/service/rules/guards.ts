/** The role check shared by the calls (SPEC.md §5 "Roles"): before anything is read or appended. */
import type { Principal } from '../../auth/index.js';
import { ErxError } from '../../errors.js';
import { EVENT_KINDS } from '../../ledger/index.js';
import type { EventType } from '../../ledger/index.js';
import type { Role } from '../../store/types.js';

/** Refuses a caller whose role is not `role` (403). */
export function requireRole(principal: Principal, role: Role): void {
  if (principal.role !== role) {
    throw new ErxError('forbidden', `Only a ${role} may do this.`, { causeCode: 'wrong_role' });
  }
}

/** Refuses a caller whose role may not make events of `type` (the kinds table, 403). */
export function requireMaker(principal: Principal, type: EventType): void {
  const makers: readonly Role[] = EVENT_KINDS[type].makers;
  if (!makers.includes(principal.role)) {
    throw new ErxError('forbidden', `Only a ${makers.join(' or ')} may do this.`, {
      causeCode: 'wrong_role',
    });
  }
}
