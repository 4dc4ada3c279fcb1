/**
 * What each dispense event of a chain handed out (SPEC.md §10), fixed when it was made: a partial
 * dispensation its items; a full one what remained of each medicament at that point of the chain,
 * after the cancels (and cancels of cancels) made before it, so a later cancel of an earlier
 * dispense does not change it.
 * Pure and free of Node's modules: the service folds with it, and the counter's timeline says
 * with the same code what a full dispensation handed out.
 */
import { EVENT_KINDS } from '../../ledger/event-kinds.js';
import { CancelFold } from './cancel-chains.js';
import type { CancelFacts, Cancels } from './cancel-chains.js';

/** The parts of an event (a signed body, or its view in a verify answer) the count reads. */
export interface DispenseFacts extends CancelFacts {
  readonly dispenses?: readonly { readonly id: string; readonly amount: number }[] | undefined;
}

/** Packages per medicament id that one dispense event handed out. */
export type Handed = ReadonlyMap<string, number>;

/** What each dispense event of a chain handed out, and what its cancels have undone. */
export interface DispenseFold {
  /** By dispense event id. */
  readonly handed: ReadonlyMap<string, Handed>;
  readonly cancels: Cancels;
}

/**
 * Folds `events` (in chain order): what each dispense handed out, with the packages of the events
 * undone or restored by cancels (of cancels) taken off or given back as the chain goes.
 */
export function foldDispenses(
  events: readonly DispenseFacts[],
  medicaments: readonly { readonly id: string; readonly prescribed: number }[],
): DispenseFold {
  const running = new Map(medicaments.map((m) => [m.id, 0]));
  const add = (handed: Handed, sign: 1 | -1): void => {
    for (const [id, amount] of handed) running.set(id, (running.get(id) ?? 0) + sign * amount);
  };
  const handed = new Map<string, Handed>();
  const cancels = new CancelFold();
  for (const e of events) {
    let made: Handed | undefined;
    const fold = EVENT_KINDS[e.type].fold;
    if (fold === 'dispense_items') {
      const items = new Map<string, number>();
      for (const item of e.dispenses ?? []) {
        if (running.has(item.id)) items.set(item.id, (items.get(item.id) ?? 0) + item.amount);
      }
      made = items;
    } else if (fold === 'dispense_rest') {
      made = new Map(
        medicaments.map((m) => [m.id, Math.max(0, m.prescribed - (running.get(m.id) ?? 0))]),
      );
    }
    for (const id of cancels.add(e)) {
      const changed = handed.get(id);
      if (changed !== undefined) add(changed, cancels.cancelled.has(id) ? -1 : 1);
    }
    if (made !== undefined) {
      handed.set(e.id, made);
      add(made, 1);
    }
  }
  return { handed, cancels };
}

/** What each dispense event of `events` (in chain order) handed out, by event id. */
export function handedOut(
  events: readonly DispenseFacts[],
  medicaments: readonly { readonly id: string; readonly prescribed: number }[],
): ReadonlyMap<string, Handed> {
  return foldDispenses(events, medicaments).handed;
}
