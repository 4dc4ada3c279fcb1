/**
 * The state of a prescription folded from its events (SPEC.md §5 "Rules of state"): revoked,
 * dispensed, locked, and which events are cancelled. Pure; the chain is the only source of truth.
 */
import type { EventBody, EventType } from '../ledger/index.js';

export interface LockInfo {
  actor: string;
  actorName: string;
  /** Timestamp of the lock event. */
  at: string;
}

export interface ChainFacts {
  revoked: boolean;
  /** True while a non-cancelled `full_dispense` exists. */
  dispensed: boolean;
  lock: LockInfo | undefined;
  /** Ids of events undone by a cancel event. */
  cancelled: ReadonlySet<string>;
  /** Events by id. */
  byId: ReadonlyMap<string, EventBody>;
}

/** Which event types a cancel may target (SPEC.md §5: create, revoke, lock, unlock are not). */
export const CANCELLABLE = {
  create: false,
  partial_dispense: true,
  full_dispense: true,
  revoke: false,
  cancel: false,
  lock: false,
  unlock: false,
} as const satisfies Record<EventType, boolean>;

/** Folds `events` (in chain order) into the facts the rules and the verify answer need. */
export function chainFacts(events: readonly EventBody[]): ChainFacts {
  const cancelled = new Set<string>();
  const byId = new Map<string, EventBody>();
  let revoked = false;
  let lock: LockInfo | undefined;
  for (const e of events) {
    byId.set(e.id, e);
    switch (e.type) {
      case 'revoke':
        revoked = true;
        break;
      case 'lock':
        lock = { actor: e.actor, actorName: e.actor_name, at: e.timestamp };
        break;
      case 'unlock':
        lock = undefined;
        break;
      case 'cancel': {
        const target = e.event_data.EventId;
        if (typeof target === 'string') cancelled.add(target);
        break;
      }
      case 'create':
      case 'partial_dispense':
      case 'full_dispense':
        break;
      default:
        return unhandled(e.type);
    }
  }
  const dispensed = events.some((e) => e.type === 'full_dispense' && !cancelled.has(e.id));
  return { revoked, dispensed, lock, cancelled, byId };
}

function unhandled(type: never): never {
  throw new Error(`unhandled event type ${String(type)}`);
}

/** Whether `event` can still be cancelled given the facts of its chain. */
export function isCancellable(event: EventBody, facts: ChainFacts): boolean {
  return CANCELLABLE[event.type] && !facts.cancelled.has(event.id);
}
