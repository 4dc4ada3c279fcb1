/**
 * Lock and unlock (SPEC.md §5): a pharmacist, or the issuing prescriber, locks while serving the
 * patient (409 if locked already); the locking actor or the issuer unlocks (409 if not locked).
 * Revoked ⇒ 403. A lock lapses `ERX_LOCK_TTL` after it (SPEC.md §10).
 */
import { ErxError } from '../../errors.js';
import { formatTimestamp } from '../../ledger/index.js';
import { appendDecided } from '../append/append.js';
import type { ServiceDeps } from '../deps.js';
import { requireMaker } from '../rules/guards.js';
import { refuseByState } from '../rules/state-rules.js';
import type { CallContext, EventView } from '../types.js';

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
  requireMaker(ctx.principal, 'lock');
  return appendDecided(deps, id, ctx, ['lock'], (chain) => {
    refuseByState('lock', 'revocation', chain.facts, ctx.principal);
    const { role, sub } = ctx.principal;
    if (role !== 'pharmacist' && chain.terms.issuerActor !== sub) {
      throw new ErxError('forbidden', 'Only a pharmacist or the issuing prescriber may lock.', {
        causeCode: 'not_owner',
      });
    }
    refuseByState('lock', 'lock', chain.facts, ctx.principal);
    // The lock lapses ERX_LOCK_TTL after its own timestamp, which the event records (SPEC.md §10).
    const at = deps.clock.nanosNotBefore(chain.bodies.at(-1)?.timestamp);
    const expiresAt = formatTimestamp(at + BigInt(deps.lockTtlMs) * 1_000_000n);
    return {
      type: 'lock',
      timestamp: formatTimestamp(at),
      event_data: { ...reasonData(reason), expires_at: expiresAt },
    };
  });
}

/** Unlocks prescription `id`. */
export async function unlock(
  deps: ServiceDeps,
  id: string,
  reason: string | undefined,
  ctx: CallContext,
): Promise<EventView> {
  requireMaker(ctx.principal, 'unlock');
  return appendDecided(deps, id, ctx, ['unlock'], (chain) => {
    refuseByState('unlock', 'revocation', chain.facts, ctx.principal);
    refuseByState('unlock', 'lock', chain.facts, ctx.principal);
    const sub = ctx.principal.sub;
    if (chain.facts.lock?.actor !== sub && chain.terms.issuerActor !== sub) {
      throw new ErxError('forbidden', 'Only the locking actor or the issuer may unlock.', {
        causeCode: 'not_owner',
      });
    }
    return { type: 'unlock', event_data: reasonData(reason) };
  });
}
