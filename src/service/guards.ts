/**
 * The refusals shared by the mutating calls (SPEC.md §5 "Rules of state", "Roles"). Each throws
 * the one error the rule names, before anything is appended.
 */
import type { Principal } from '../auth/index.js';
import { ErxError } from '../errors.js';
import type { Role } from '../store/types.js';
import type { ChainFacts } from './chain-state.js';

/** Refuses a caller whose role is not `role` (403). */
export function requireRole(principal: Principal, role: Role): void {
  if (principal.role !== role) {
    throw new ErxError('forbidden', `Only a ${role} may do this.`, { causeCode: 'wrong_role' });
  }
}

/** Refuses any change to a revoked prescription (403, `cause.Code` `revoked`). */
export function refuseRevoked(facts: ChainFacts): void {
  if (facts.revoked) {
    throw new ErxError('forbidden', 'The prescription has been revoked.', { causeCode: 'revoked' });
  }
}

/**
 * Refuses while someone else holds the lock (423). The message names the holder so the pharmacy
 * at the counter knows whom to call; the holder itself may go on serving the patient.
 */
export function refuseLockedByOther(facts: ChainFacts, principal: Principal): void {
  if (facts.lock && facts.lock.actor !== principal.sub) {
    throw new ErxError(
      'locked',
      `The prescription is locked by ${facts.lock.actorName || facts.lock.actor} since ${facts.lock.at}.`,
    );
  }
}
