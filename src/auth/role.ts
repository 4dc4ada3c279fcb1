/**
 * The two roles of SPEC.md §5: the only scopes erx understands.
 */
import type { Role } from '../store/types.js';

/** Every role, in a stable order. */
export const ROLES: readonly Role[] = Object.freeze(['prescriber', 'pharmacist']);

/** True when `value` names a role. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
