/**
 * The prescription's rules for a dispensation (SPEC.md §5 "Rules of state", §10), each a named pure
 * check in one list, walked in the order of docs/decisions.md "Which refusals force overrides":
 * revoked, locked by another, already dispensed (but for HIN's closing step), expired, an item
 * naming no medicament, a substitute for `Subs 1`, more packages than remain. Each check takes the
 * folded facts and what is asked, and answers its refusal or nothing.
 */
import type { Principal } from '../../auth/index.js';
import { ErxError } from '../../errors.js';
import type { OverrideCode } from '../../ledger/index.js';
import type { ChainFacts } from './chain-state.js';
import { stateRefusal } from './state-rules.js';
import type { Refusal } from './state-rules.js';
import type { DispenseItem } from '../types.js';

/** What a dispensation asks for. */
export interface DispenseAsk {
  /** The items; undefined for a full dispensation (no body). */
  readonly items: readonly DispenseItem[] | undefined;
  /** `force=true` (SPEC.md §10). */
  readonly force: boolean;
  readonly principal: Principal;
}

/** One rule: its refusal of `ask` on a prescription in the state `facts`, or nothing. */
export type DispenseCheck = (facts: ChainFacts, ask: DispenseAsk) => Refusal | undefined;

/** 403 `revoked`. */
export const revocation: DispenseCheck = (facts, ask) =>
  stateRefusal('dispense', 'revocation', facts, ask.principal);

/** 423 naming the holder, when another holds the lock. */
export const lock: DispenseCheck = (facts, ask) =>
  stateRefusal('dispense', 'lock', facts, ask.principal);

/**
 * HIN's closing step (SPEC.md §5): partial dispensations completed the prescription and no
 * non-cancelled `full_dispense` exists; one full dispensation without body and without force is
 * then accepted, recorded as `full_dispense`, handing out nothing more.
 */
export function isClosingStep(facts: ChainFacts, ask: DispenseAsk): boolean {
  return facts.dispensed && !facts.fullDispensed && ask.items === undefined && !ask.force;
}

/** The seed §7 403 on a fully dispensed prescription, overridable, except HIN's closing step. */
export const completion: DispenseCheck = (facts, ask) =>
  isClosingStep(facts, ask)
    ? undefined
    : stateRefusal('dispense', 'completion', facts, ask.principal);

/** 403 `expired` after the prescription's `expires_at`, overridable. */
export const validity: DispenseCheck = (facts, ask) =>
  stateRefusal('dispense', 'validity', facts, ask.principal);

/** 400 `unknown_medicament` for items naming no medicament of the prescription, whatever force. */
export const medicaments: DispenseCheck = (facts, ask) => {
  const known = new Set(facts.medicaments.map((m) => m.id));
  const violations = (ask.items ?? []).flatMap((item, index) =>
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
  if (violations.length === 0) return undefined;
  const error = new ErxError(
    'bad_request',
    'A dispensed item names no medicament of the prescription.',
    { causeCode: 'unknown_medicament', violations },
  );
  return { error };
};

/** 403 `substitution_not_allowed` for a substitute of a medicament whose `Subs` is 1, overridable. */
export const substitution: DispenseCheck = (facts, ask) => {
  const banned = new Set(facts.medicaments.filter((m) => !m.substitutionAllowed).map((m) => m.id));
  const item = ask.items?.find((i) => i.substitute !== undefined && banned.has(i.id));
  if (item === undefined) return undefined;
  const error = new ErxError(
    'forbidden',
    `Medicament ${item.id} must not be substituted (the prescription says Subs 1).`,
    { causeCode: 'substitution_not_allowed', params: { medicament: item.id } },
  );
  return { error, overridable: 'substitution_not_allowed' };
};

/** 403 `quantity_exceeded` for items taking a medicament past its prescribed packages, overridable. */
export const quantity: DispenseCheck = (facts, ask) => {
  if (ask.items === undefined) return undefined;
  const asked = new Map<string, number>();
  for (const item of ask.items) asked.set(item.id, (asked.get(item.id) ?? 0) + item.amount);
  for (const m of facts.medicaments) {
    const amount = asked.get(m.id) ?? 0;
    const remaining = Math.max(0, m.prescribed - m.dispensed);
    if (amount <= remaining) continue;
    const error = new ErxError(
      'forbidden',
      `Medicament ${m.id}: ${amount} package(s) asked, ${remaining} of ${m.prescribed} remain.`,
      {
        causeCode: 'quantity_exceeded',
        params: { medicament: m.id, amount, remaining, prescribed: m.prescribed },
      },
    );
    return { error, overridable: 'quantity_exceeded' };
  }
  return undefined;
};

/** Every rule, in the order a dispensation meets them. */
export const DISPENSE_CHECKS = [
  ['revocation', revocation],
  ['lock', lock],
  ['completion', completion],
  ['validity', validity],
  ['medicaments', medicaments],
  ['substitution', substitution],
  ['quantity', quantity],
] as const satisfies readonly (readonly [string, DispenseCheck])[];

/** The outcome of {@link checkDispense}. */
export type DispenseDecision =
  | { readonly ok: true; readonly overridden: ReadonlySet<OverrideCode> }
  | { readonly ok: false; readonly error: ErxError };

/**
 * Walks {@link DISPENSE_CHECKS}: the first refusal force may not override ends the walk; with
 * force, each overridable refusal is noted as overridden instead.
 */
export function checkDispense(facts: ChainFacts, ask: DispenseAsk): DispenseDecision {
  const overridden = new Set<OverrideCode>();
  for (const [, check] of DISPENSE_CHECKS) {
    const refused = check(facts, ask);
    if (refused === undefined) continue;
    if (!ask.force || refused.overridable === undefined) return { ok: false, error: refused.error };
    overridden.add(refused.overridable);
  }
  return { ok: true, overridden };
}
