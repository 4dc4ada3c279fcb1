/**
 * What each dispense event of a chain handed out (SPEC.md §10), fixed when it was made: a partial
 * dispensation its items; a full one what remained of each medicament at that point of the chain,
 * after the cancels made before it, so a later cancel of an earlier dispense does not change it.
 * Pure and free of Node's modules: the service folds with it, and the counter's timeline says
 * with the same code what a full dispensation handed out.
 */
import type { EventType } from '../ledger/event.js';
import { EVENT_KINDS } from '../ledger/event-kinds.js';

/** The parts of an event (a signed body, or its view in a verify answer) the count reads. */
export interface DispenseFacts {
  readonly id: string;
  readonly type: EventType;
  readonly event_data: { readonly EventId?: unknown };
  readonly dispenses?: readonly { readonly id: string; readonly amount: number }[] | undefined;
}

/** Packages per medicament id that one dispense event handed out. */
export type Handed = ReadonlyMap<string, number>;

/** What each dispense event of `events` (in chain order) handed out, by event id. */
export function handedOut(
  events: readonly DispenseFacts[],
  medicaments: readonly { readonly id: string; readonly prescribed: number }[],
): ReadonlyMap<string, Handed> {
  const running = new Map(medicaments.map((m) => [m.id, 0]));
  const add = (handed: Handed, sign: 1 | -1): void => {
    for (const [id, amount] of handed) running.set(id, (running.get(id) ?? 0) + sign * amount);
  };
  const handed = new Map<string, Handed>();
  const undone = new Set<string>();
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
    } else if (fold === 'cancel' && typeof e.event_data.EventId === 'string') {
      const target = e.event_data.EventId;
      const undoes = handed.get(target);
      if (undoes !== undefined && !undone.has(target)) {
        undone.add(target);
        add(undoes, -1);
      }
    }
    if (made !== undefined) {
      handed.set(e.id, made);
      add(made, 1);
    }
  }
  return handed;
}
