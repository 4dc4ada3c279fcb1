/**
 * Lock and unlock (SPEC.md §5): a pharmacist locks while serving the patient (409 if locked
 * already); the locking actor or the issuer unlocks (409 if not locked). Revoked ⇒ 403.
 */
import { ErxError } from '../errors.js';
import { appendDecided } from './append.js';
import type { ServiceDeps } from './deps.js';
import { refuseRevoked, requireRole } from './guards.js';
import type { CallContext, EventView } from './types.js';

function reasonData(reason: string | undefined): { reason?: string } {
  return reason === undefined || reason === '' ? {} : { reason };
}

/** Locks prescription `id`. */
export async function lock(
  deps: ServiceDeps,
  id: string,
  reason: string | undefined,
  ctx: CallContext,
): Promise<EventView> {
  requireRole(ctx.principal, 'pharmacist');
  return appendDecided(deps, id, ctx, (chain) => {
    refuseRevoked(chain.facts);
    if (chain.facts.lock) {
      throw new ErxError(
        'conflict',
        `The prescription is locked already by ${chain.facts.lock.actorName || chain.facts.lock.actor}.`,
        { causeCode: 'already_locked' },
      );
    }
    return { type: 'lock', event_data: reasonData(reason) };
  });
}

/** Unlocks prescription `id`. */
export async function unlock(
  deps: ServiceDeps,
  id: string,
  reason: string | undefined,
  ctx: CallContext,
): Promise<EventView> {
  return appendDecided(deps, id, ctx, (chain) => {
    refuseRevoked(chain.facts);
    const held = chain.facts.lock;
    if (!held) {
      throw new ErxError('conflict', 'The prescription is not locked.', {
        causeCode: 'not_locked',
      });
    }
    const sub = ctx.principal.sub;
    if (held.actor !== sub && chain.prescription.issuerActor !== sub) {
      throw new ErxError('forbidden', 'Only the locking actor or the issuer may unlock.', {
        causeCode: 'not_owner',
      });
    }
    return { type: 'unlock', event_data: reasonData(reason) };
  });
}
