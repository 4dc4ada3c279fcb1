/**
 * Which events of a chain are undone, following cancels of cancels (SPEC.md §5: a `cancel` is
 * itself cancellable by its actor; undoing an undo restores the cancelled event's effect).
 *
 * A cancel stands unless a standing cancel names it; an event is cancelled while a standing cancel
 * names it. A cancel names an event before it, so walking the chain in order decides every event
 * once its cancels are read. Each event is named by at most one cancel (the operation refuses a
 * second, docs/decisions.md "Which events can be cancelled"); a stored chain naming one twice
 * still folds by the same rule. Pure and free of Node's modules: the page folds with it too.
 */
import type { EventType } from '../../ledger/event.js';
import { EVENT_KINDS } from '../../ledger/event-kinds.js';

/** The parts of an event (a signed body, or its view in a verify answer) a cancel fold reads. */
export interface CancelFacts {
  readonly id: string;
  readonly type: EventType;
  readonly event_data: { readonly EventId?: unknown };
}

/** What a chain's cancels have done. */
export interface Cancels {
  /** Events undone now: a standing cancel names them. */
  readonly cancelled: ReadonlySet<string>;
  /** Events a cancel has named, standing or not: none of them can be cancelled again. */
  readonly named: ReadonlySet<string>;
}

/** Folds a chain's events in order, saying after each which events it undid or restored. */
export class CancelFold implements Cancels {
  readonly cancelled = new Set<string>();
  readonly named = new Set<string>();
  readonly #seen = new Set<string>();
  /** The event each cancel names. */
  readonly #targetOf = new Map<string, string>();
  /** How many standing cancels name each event. */
  readonly #standingOn = new Map<string, number>();

  /**
   * Reads the next event of the chain; answers the events whose state it changed, in the order
   * they changed (an event in {@link cancelled} now was undone, any other restored).
   */
  add(e: CancelFacts): readonly string[] {
    const target = e.event_data.EventId;
    const names =
      EVENT_KINDS[e.type].fold === 'cancel' && typeof target === 'string' && this.#seen.has(target);
    this.#seen.add(e.id);
    if (!names) return [];
    this.named.add(target);
    this.#targetOf.set(e.id, target);
    // A new cancel stands: nothing after it can have named it yet.
    return this.#support(target, 1);
  }

  /**
   * Adds `delta` standing cancels on `first`; when that undoes or restores it and it is a cancel
   * itself, its own target loses or regains its support, and so on down the chain. Targets come
   * strictly earlier in the chain, so the walk ends.
   */
  #support(first: string, delta: 1 | -1): string[] {
    const changed: string[] = [];
    let current: string | undefined = first;
    let change = delta;
    while (current !== undefined) {
      const before = this.#standingOn.get(current) ?? 0;
      const after = before + change;
      this.#standingOn.set(current, after);
      if (before > 0 === after > 0) break;
      if (after > 0) this.cancelled.add(current);
      else this.cancelled.delete(current);
      changed.push(current);
      // An undone cancel stops supporting its target; a restored one supports it again.
      change = after > 0 ? -1 : 1;
      current = this.#targetOf.get(current);
    }
    return changed;
  }
}

/** What the cancels of `events` (in chain order) have done. */
export function cancelledIn(events: readonly CancelFacts[]): Cancels {
  const fold = new CancelFold();
  for (const e of events) fold.add(e);
  return fold;
}
