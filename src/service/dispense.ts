/**
 * Dispense (seed §4.1 rules 1–6, SPEC.md §5): no body is a full dispensation; items are a
 * partial one (with substitutes); a fully dispensed prescription refuses without `force=true`.
 */
import { ErxError } from '../errors.js';
import type { ServiceDeps } from './deps.js';
import { appendDecided } from './append.js';
import { requireRole } from './guards.js';
import { refuseByState } from './state-rules.js';
import type { CallContext, DispenseItem, EventView } from './types.js';

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
    refuseByState('dispense', 'revocation', chain.facts, ctx.principal);
    refuseByState('dispense', 'lock', chain.facts, ctx.principal);
    refuseByState('dispense', 'completion', chain.facts, ctx.principal, force);
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
