/**
 * Dispense (seed §4.1 rules 1–6, SPEC.md §5): no body is a full dispensation; items are a
 * partial one (with substitutes); a fully dispensed prescription refuses without `force=true`.
 */
import { ErxError } from '../errors.js';
import type { ServiceDeps } from './deps.js';
import { appendDecided } from './append.js';
import { refuseLockedByOther, refuseRevoked, requireRole } from './guards.js';
import type { CallContext, DispenseItem, EventView } from './types.js';

/** Seed §7: the exact refusal of a dispense on a fully dispensed prescription without force. */
export function alreadyDispensed(): ErxError {
  return new ErxError('forbidden', 'The prescription has already been fully dispensed.', {
    causeCode: 'unknown_error',
  });
}

/** Records a dispensation of prescription `id`. `items` undefined means a full dispensation. */
export async function dispense(
  deps: ServiceDeps,
  id: string,
  items: readonly DispenseItem[] | undefined,
  force: boolean,
  ctx: CallContext,
): Promise<EventView> {
  requireRole(ctx.principal, 'pharmacist');
  return appendDecided(deps, id, ctx, (chain) => {
    refuseRevoked(chain.facts);
    refuseLockedByOther(chain.facts, ctx.principal);
    if (chain.facts.dispensed && !force) throw alreadyDispensed();
    if (items === undefined) return { type: 'full_dispense' };
    const known = new Set(chain.prescription.medicaments.map((m) => m.Id));
    const violations = items.flatMap((item, index) =>
      known.has(item.id)
        ? []
        : [{ path: `/${index}/id`, message: 'is not the Id of a medicament of this prescription' }],
    );
    if (violations.length > 0) {
      throw new ErxError(
        'bad_request',
        'A dispensed item names no medicament of the prescription.',
        {
          causeCode: 'unknown_medicament',
          violations,
        },
      );
    }
    return { type: 'partial_dispense', dispenses: items };
  });
}
