/**
 * Dispense (seed §4.1 rules 1–6, SPEC.md §5, §10): no body is a full dispensation; items are a
 * partial one (with substitutes). The prescription's rules refuse what it does not allow: an
 * already dispensed prescription, an expired one, a substitute for a medicament that must not be
 * substituted, more packages than prescribed (`../rules/dispense-checks.ts`, one list). `force=true` overrides
 * each of those, and the event records what it overrode. HIN's closing full dispensation after
 * partial ones is accepted without force (SPEC.md §5).
 */
import { ErxError } from '../../errors.js';
import { OVERRIDE_CODES } from '../../ledger/index.js';
import type { EventData, OverrideCode } from '../../ledger/index.js';
import type { ServiceDeps } from '../deps.js';
import { appendDecided } from '../append/append.js';
import type { EventChoice } from '../append/append.js';
import { requireMaker } from '../rules/guards.js';
import { checkDispense } from '../rules/dispense-checks.js';
import type { CallContext, DispenseItem, EventView } from '../types.js';

/** How a dispensation was asked for beyond its items. */
export interface DispenseOptions {
  /** `force=true`: the pharmacist's discretion (seed §3, SPEC.md §10). */
  readonly force: boolean;
  /** Why, recorded with a forced dispensation. */
  readonly reason?: string | undefined;
}

/** The event data of a dispensation: `{}`, or what a forced one overrode and why. */
function forcedData(options: DispenseOptions, overridden: ReadonlySet<OverrideCode>): EventData {
  if (!options.force) return {};
  const data: EventData = {
    force: true,
    overrides: OVERRIDE_CODES.filter((code) => overridden.has(code)),
  };
  if (options.reason !== undefined && options.reason !== '') data.reason = options.reason;
  return data;
}

/** Records a dispensation of prescription `id`. `items` undefined means a full dispensation. */
export async function dispense(
  deps: ServiceDeps,
  id: string,
  items: readonly DispenseItem[] | undefined,
  options: DispenseOptions,
  ctx: CallContext,
): Promise<EventView> {
  requireMaker(ctx.principal, items === undefined ? 'full_dispense' : 'partial_dispense');
  if (!options.force && options.reason !== undefined) {
    throw new ErxError('bad_request', 'A reason is recorded only with force=true.', {
      violations: [
        {
          path: '/reason',
          code: 'only_with_force',
          message: 'is only allowed with force=true',
          params: {},
        },
      ],
    });
  }
  // A full dispensation is asked for without items, a partial one with them.
  const type = items === undefined ? 'full_dispense' : 'partial_dispense';
  return appendDecided(deps, id, ctx, [type], (chain): EventChoice => {
    const ask = { items, force: options.force, principal: ctx.principal };
    const decision = checkDispense(chain.facts, ask);
    if (!decision.ok) throw decision.error;
    const event_data = forcedData(options, decision.overridden);
    if (items === undefined) return { type: 'full_dispense', event_data };
    return { type: 'partial_dispense', dispenses: items, event_data };
  });
}
