/**
 * Cancel (SPEC.md §5): the actor of a dispense event undoes it, and the actor of a cancel undoes
 * that (restoring what it undid, `../rules/cancel-chains.ts`). Unknown event 404; not cancellable (create,
 * revoke, lock, unlock) or named by a cancel already 409; another's 403.
 */
import { ErxError } from '../../errors.js';
import { appendDecided } from '../append/append.js';
import { isCancellable } from '../rules/chain-state.js';
import type { ServiceDeps } from '../deps.js';
import { requireMaker } from '../rules/guards.js';
import { refuseByState } from '../rules/state-rules.js';
import type { CallContext, EventView } from '../types.js';

/** Cancels event `eventId` of prescription `id`. */
export async function cancel(
  deps: ServiceDeps,
  id: string,
  eventId: string,
  ctx: CallContext,
): Promise<EventView> {
  requireMaker(ctx.principal, 'cancel');
  return appendDecided(deps, id, ctx, ['cancel'], (chain) => {
    refuseByState('cancel', 'revocation', chain.facts, ctx.principal);
    const target = chain.facts.byId.get(eventId);
    if (!target) throw new ErxError('not_found', 'The prescription has no event with this id.');
    if (target.actor !== ctx.principal.sub) {
      throw new ErxError('forbidden', 'Only the actor of an event may cancel it.', {
        causeCode: 'not_owner',
      });
    }
    refuseByState('cancel', 'lock', chain.facts, ctx.principal);
    if (!isCancellable(target, chain.facts.named)) {
      throw new ErxError('conflict', 'This event cannot be cancelled (or is cancelled already).', {
        causeCode: 'not_cancellable',
      });
    }
    return { type: 'cancel', event_data: { EventId: eventId } };
  });
}
