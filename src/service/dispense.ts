/**
 * Dispense (seed §4.1 rules 1–6, SPEC.md §5, §10): no body is a full dispensation; items are a
 * partial one (with substitutes). The prescription's rules refuse what it does not allow: an
 * already dispensed prescription, an expired one, a substitute for a medicament that must not be
 * substituted, more packages than prescribed. `force=true` overrides each of those, and the event
 * records what it overrode.
 */
import { ErxError } from '../errors.js';
import { OVERRIDE_CODES } from '../ledger/index.js';
import type { EventData, OverrideCode } from '../ledger/index.js';
import type { ServiceDeps } from './deps.js';
import { appendDecided } from './append.js';
import type { EventChoice } from './append.js';
import { requireMaker } from './guards.js';
import type { LoadedChain } from './load-chain.js';
import { refuseByState } from './state-rules.js';
import type { CallContext, DispenseItem, EventView } from './types.js';

/** How a dispensation was asked for beyond its items. */
export interface DispenseOptions {
  /** `force=true`: the pharmacist's discretion (seed §3, SPEC.md §10). */
  readonly force: boolean;
  /** Why, recorded with a forced dispensation. */
  readonly reason?: string | undefined;
}

/** Items naming no medicament of the prescription: 400, whatever `force` says. */
function refuseUnknown(items: readonly DispenseItem[], chain: LoadedChain): void {
  const known = new Set(chain.terms.medicaments.map((m) => m.id));
  const violations = items.flatMap((item, index) =>
    known.has(item.id)
      ? []
      : [
          {
            path: `/${index}/id`,
            code: 'unknown_medicament' as const,
            message: 'is not the Id of a medicament of this prescription',
            params: {},
          },
        ],
  );
  if (violations.length > 0) {
    throw new ErxError('bad_request', 'A dispensed item names no medicament of the prescription.', {
      causeCode: 'unknown_medicament',
      violations,
    });
  }
}

/** A substitute for a medicament whose `Subs` is 1 (SPEC.md §10). */
function substitutionRefusal(
  items: readonly DispenseItem[],
  chain: LoadedChain,
): ErxError | undefined {
  const banned = new Set(
    chain.terms.medicaments.filter((m) => !m.substitutionAllowed).map((m) => m.id),
  );
  const item = items.find((i) => i.substitute !== undefined && banned.has(i.id));
  if (item === undefined) return undefined;
  return new ErxError(
    'forbidden',
    `Medicament ${item.id} must not be substituted (the prescription says Subs 1).`,
    { causeCode: 'substitution_not_allowed', params: { medicament: item.id } },
  );
}

/** Items that would take a medicament past its prescribed packages (SPEC.md §10). */
function quantityRefusal(items: readonly DispenseItem[], chain: LoadedChain): ErxError | undefined {
  const asked = new Map<string, number>();
  for (const item of items) asked.set(item.id, (asked.get(item.id) ?? 0) + item.amount);
  for (const m of chain.facts.medicaments) {
    const amount = asked.get(m.id) ?? 0;
    const remaining = Math.max(0, m.prescribed - m.dispensed);
    if (amount > remaining) {
      return new ErxError(
        'forbidden',
        `Medicament ${m.id}: ${amount} package(s) asked, ${remaining} of ${m.prescribed} remain.`,
        {
          causeCode: 'quantity_exceeded',
          params: { medicament: m.id, amount, remaining, prescribed: m.prescribed },
        },
      );
    }
  }
  return undefined;
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
  return appendDecided(deps, id, ctx, (chain): EventChoice => {
    const { facts } = chain;
    const { principal } = ctx;
    const force = options.force;
    refuseByState('dispense', 'revocation', facts, principal);
    refuseByState('dispense', 'lock', facts, principal);
    const overridden = new Set<OverrideCode>();
    const note = (code: OverrideCode | undefined): void => void (code && overridden.add(code));
    note(refuseByState('dispense', 'completion', facts, principal, force));
    note(refuseByState('dispense', 'validity', facts, principal, force));
    if (items !== undefined) {
      refuseUnknown(items, chain);
      for (const [code, refusal] of [
        ['substitution_not_allowed', substitutionRefusal(items, chain)],
        ['quantity_exceeded', quantityRefusal(items, chain)],
      ] as const) {
        if (refusal === undefined) continue;
        if (!force) throw refusal;
        overridden.add(code);
      }
    }
    const event_data = forcedData(options, overridden);
    if (items === undefined) return { type: 'full_dispense', event_data };
    return { type: 'partial_dispense', dispenses: items, event_data };
  });
}
