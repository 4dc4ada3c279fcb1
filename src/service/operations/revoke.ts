/** Revoke (SPEC.md §5): the issuing prescriber only; final, so a second revoke is a 409. */
import { ErxError } from '../../errors.js';
import { appendDecided } from '../append/append.js';
import type { ServiceDeps } from '../deps.js';
import { requireMaker } from '../rules/guards.js';
import { refuseByState } from '../rules/state-rules.js';
import type { CallContext, EventView } from '../types.js';

/** Revokes prescription `id`. */
export async function revoke(deps: ServiceDeps, id: string, ctx: CallContext): Promise<EventView> {
  requireMaker(ctx.principal, 'revoke');
  return appendDecided(deps, id, ctx, ['revoke'], (chain) => {
    if (chain.terms.issuerActor !== ctx.principal.sub) {
      throw new ErxError('forbidden', 'Only the issuing prescriber may revoke this prescription.', {
        causeCode: 'not_owner',
      });
    }
    refuseByState('revoke', 'revocation', chain.facts, ctx.principal);
    refuseByState('revoke', 'lock', chain.facts, ctx.principal);
    return { type: 'revoke' };
  });
}
