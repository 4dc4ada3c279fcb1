/**
 * A model of the quantities of SPEC.md §5 and §10, read from the specification independently of
 * `src/service`: fed only the events the service accepted, it says what each dispense and cancel
 * must do and what the medicament table must show (`src/service/rules/quantities.property.test.ts`).
 */
import type { Principal } from '../../src/auth/index.js';
import type { DispenseItem } from '../../src/service/index.js';

/** The medicament ids the generated documents prescribe, in document order. */
export const MEDICAMENT_IDS = ['7680000000011', '7680000000028', '7680000000035'];

/** SPEC.md §10: the refusals force overrides, in the order the event records them. */
export const OVERRIDE_ORDER = [
  'already_dispensed',
  'quantity_exceeded',
  'substitution_not_allowed',
  'expired',
] as const;

/** A CHMED23A repetition object (IG eMediplan): a count, a duration, or both. */
export type Reps =
  | { readonly t: 1; readonly v: number }
  | { readonly t: 2; readonly d: number; readonly u: number }
  | { readonly t: 3; readonly v: number; readonly d: number; readonly u: number };

/** A medicament as the document states it, in either release. */
export type Medicament =
  | {
      readonly format: 'CHMED16A';
      readonly nbPack: number | undefined;
      readonly rep: number | undefined;
      readonly subs: 0 | 1 | undefined;
    }
  | {
      readonly format: 'CHMED23A';
      readonly nbPack: number | undefined;
      readonly reps: Reps | undefined;
      readonly isNotSub: boolean | undefined;
    };

export interface ItemOp {
  /** Index into the prescription's medicaments (modulo their number); -1 names none of them. */
  readonly medicament: number;
  readonly amount: number;
  readonly substitute: boolean;
}

export type Op =
  | {
      readonly kind: 'partial' | 'full';
      readonly items: readonly ItemOp[];
      readonly force: boolean;
      readonly reason: string | undefined;
      readonly byOther: boolean;
    }
  /** Cancels the event at `target` (modulo the chain's length), as its actor or as someone else. */
  | { readonly kind: 'cancel'; readonly target: number; readonly byOwner: boolean };

/** An event the service accepted, as the model keeps it. */
export interface ModelEvent {
  readonly id: string;
  readonly type: string;
  readonly actor: string;
  readonly actorName: string;
  readonly timestamp: string;
  readonly items: readonly DispenseItem[];
  readonly forced: boolean;
  /** A cancel's target. */
  readonly target?: string;
}

/**
 * SPEC.md §10: `(NbPack ?? 1) × (1 + (Rep ?? 0))` packages. CHMED23A (docs/decisions.md): the
 * count `v` adds redemptions; a duration alone adds none; no `reps` at all is one more (IG).
 */
export function prescribed(m: Medicament): number {
  if (m.format === 'CHMED16A') return (m.nbPack ?? 1) * (1 + (m.rep ?? 0));
  const more = m.reps === undefined ? 1 : m.reps.t === 2 ? 0 : m.reps.v;
  return (m.nbPack ?? 1) * (1 + more);
}

/** SPEC.md §10: `Subs` 1 (CHMED23A `isNotSub` true) forbids a substitute. */
export function substitutionAllowed(m: Medicament): boolean {
  return m.format === 'CHMED16A' ? m.subs !== 1 : m.isNotSub !== true;
}

export interface ModelState {
  readonly dispensed: readonly number[];
  readonly allReached: boolean;
  readonly standingFull: boolean;
  readonly standingForced: boolean;
  /**
   * The first standing dispense event after which every medicament had its quantity, or that is a
   * full dispensation.
   */
  readonly completion: ModelEvent | undefined;
  /** Events a standing cancel undoes. */
  readonly cancelled: ReadonlySet<string>;
  /** Events a cancel has named, standing or not. */
  readonly named: ReadonlySet<string>;
}

/**
 * The events a standing cancel names among `events` (a chain, or the part of it written so far).
 * SPEC.md §5: a `cancel` is itself cancellable, and undoing an undo restores the cancelled event's
 * effect; so a cancel stands unless a standing cancel names it, and an event is cancelled while a
 * standing cancel names it.
 */
function cancelledAmong(events: readonly ModelEvent[]): ReadonlySet<string> {
  const standing = new Map<string, boolean>();
  const stands = (cancel: ModelEvent): boolean => {
    let known = standing.get(cancel.id);
    if (known === undefined) {
      known = !events.some((later) => later.target === cancel.id && stands(later));
      standing.set(cancel.id, known);
    }
    return known;
  };
  return new Set(events.flatMap((e) => (e.target !== undefined && stands(e) ? [e.target] : [])));
}

/**
 * Folds the accepted events. SPEC.md §10: a partial dispensation hands out its items; a full one
 * takes every medicament to its prescribed quantity, so it hands out what remained when it was
 * made (after the cancels standing then), and that stays its count; cancelling a dispense gives
 * its packages back, and undoing that cancel takes them again. Cancelled events then count as
 * never made.
 */
export function fold(
  medicaments: readonly Medicament[],
  events: readonly ModelEvent[],
): ModelState {
  // What each dispense handed out, walking the chain as it was written.
  const handed = new Map<string, number[]>();
  const standingSum = (upTo: number): number[] => {
    const undone = cancelledAmong(events.slice(0, upTo));
    const sum = medicaments.map(() => 0);
    for (const e of events.slice(0, upTo)) {
      if (undone.has(e.id)) continue;
      handed.get(e.id)?.forEach((amount, i) => (sum[i] = sum[i]! + amount));
    }
    return sum;
  };
  for (const [index, e] of events.entries()) {
    if (e.type === 'partial_dispense') {
      handed.set(
        e.id,
        medicaments.map((_, i) =>
          e.items
            .filter((item) => MEDICAMENT_IDS.indexOf(item.id) === i)
            .reduce((sum, item) => sum + item.amount, 0),
        ),
      );
    } else if (e.type === 'full_dispense') {
      const before = standingSum(index);
      handed.set(
        e.id,
        medicaments.map((m, i) => Math.max(0, prescribed(m) - before[i]!)),
      );
    }
  }
  // What stands: the dispenses no standing cancel undoes, each with what it handed out.
  const cancelled = cancelledAmong(events);
  const named = new Set(events.flatMap((e) => (e.target === undefined ? [] : [e.target])));
  const dispensed = medicaments.map(() => 0);
  const reached = (): boolean => medicaments.every((m, i) => dispensed[i]! >= prescribed(m));
  let completion: ModelEvent | undefined;
  let standingFull = false;
  let standingForced = false;
  for (const e of events) {
    const amounts = handed.get(e.id);
    if (amounts === undefined || cancelled.has(e.id)) continue;
    amounts.forEach((amount, i) => (dispensed[i] = dispensed[i]! + amount));
    standingFull ||= e.type === 'full_dispense';
    standingForced ||= e.forced;
    if (completion === undefined && (reached() || e.type === 'full_dispense')) completion = e;
  }
  return {
    dispensed,
    allReached: reached(),
    standingFull,
    standingForced,
    completion,
    cancelled,
    named,
  };
}

/** What a call must do: be accepted (with the overrides a forced one records) or be refused. */
export type Expected =
  | { readonly accepted: true; readonly overrides: readonly string[] }
  | { readonly accepted: false; readonly code: string; readonly cause: string };

export const refused = (code: string, cause: string): Expected => ({
  accepted: false,
  code,
  cause,
});

/**
 * The outcome of a dispensation (docs/decisions.md, "Which refusals force overrides"): a reason
 * without force, already dispensed (but for HIN's closing step), an unknown item, a substitute for
 * `Subs 1`, more packages than remain; force overrides the three of those SPEC.md §10 names.
 */
export function expectDispense(
  medicaments: readonly Medicament[],
  state: ModelState,
  op: Extract<Op, { kind: 'partial' | 'full' }>,
  items: readonly DispenseItem[] | undefined,
): Expected {
  if (!op.force && op.reason !== undefined) return refused('bad_request', 'bad_request');
  const overridden = new Set<string>();
  const override = (code: string, cause: string): Expected | undefined => {
    if (!op.force) return refused('forbidden', cause);
    overridden.add(code);
    return undefined;
  };
  // SPEC.md §5, HIN's closing step: partial dispensations completed the prescription and no
  // full dispensation stands; one full dispensation without body and without force is accepted.
  const closing = state.allReached && !state.standingFull && items === undefined && !op.force;
  if ((state.allReached || state.standingFull) && !closing) {
    const refusal = override('already_dispensed', 'unknown_error');
    if (refusal) return refusal;
  }
  if (items !== undefined) {
    const index = (item: DispenseItem): number => MEDICAMENT_IDS.indexOf(item.id);
    if (items.some((item) => index(item) < 0 || index(item) >= medicaments.length)) {
      return refused('bad_request', 'unknown_medicament');
    }
    const banned = items.some(
      (i) => i.substitute !== undefined && !substitutionAllowed(medicaments[index(i)]!),
    );
    if (banned) {
      const refusal = override('substitution_not_allowed', 'substitution_not_allowed');
      if (refusal) return refusal;
    }
    const asked = medicaments.map((_, i) =>
      items.filter((item) => index(item) === i).reduce((sum, item) => sum + item.amount, 0),
    );
    const exceeds = medicaments.some(
      (m, i) => asked[i]! > Math.max(0, prescribed(m) - state.dispensed[i]!),
    );
    if (exceeds) {
      const refusal = override('quantity_exceeded', 'quantity_exceeded');
      if (refusal) return refusal;
    }
  }
  return { accepted: true, overrides: OVERRIDE_ORDER.filter((code) => overridden.has(code)) };
}

/**
 * The outcome of a cancel (SPEC.md §5): someone else's event 403; not cancellable (create) or
 * named by a cancel already 409 (docs/decisions.md "Which events can be cancelled": an undone
 * event is cancelled again by undoing the cancel that restored it). A cancel is cancellable.
 */
export function expectCancel(state: ModelState, target: ModelEvent, caller: Principal): Expected {
  if (target.actor !== caller.sub) return refused('forbidden', 'not_owner');
  const cancellable = ['partial_dispense', 'full_dispense', 'cancel'].includes(target.type);
  if (!cancellable || state.named.has(target.id)) return refused('conflict', 'not_cancellable');
  return { accepted: true, overrides: [] };
}
