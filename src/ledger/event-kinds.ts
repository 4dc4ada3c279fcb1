/**
 * Every event kind's rules in one table (SPEC.md §5, §7, §10): who makes it, what its body and
 * `event_data` carry, whether it can be cancelled, how it folds into the prescription's state and
 * whether other pharmacies see it in the feed. Validation, the fold, the view, the feed and the
 * page read their answer here, so a new event type is a compile error until its row is written.
 * Pure and free of Node's modules: the page imports it too.
 */
import type { Role } from '../store/types.js';
import type { EventType } from './event.js';

/** What an event's `event_data` may carry (SPEC.md §7, §10). */
export type EventDataShape =
  /** `{}` only. */
  | 'empty'
  /** Exactly `{EventId}`. */
  | 'cancel'
  /** `{}` with at most `reason` and `expires_at`. */
  | 'lock'
  /** `{}` or `{reason}`. */
  | 'unlock'
  /** `{}` or `{force: true, overrides, reason}`. */
  | 'dispense';

/** How an event changes the state folded from its chain (SPEC.md §5 "Rules of state", §10). */
export type FoldEffect =
  /** Nothing beyond starting the chain. */
  | 'none'
  /** The prescription is revoked, for good. */
  | 'revoke'
  /** Undoes the event its `EventId` names while the cancel stands. */
  | 'cancel'
  /** Holds the prescription for its actor until unlocked or lapsed. */
  | 'lock'
  /** Releases the lock. */
  | 'unlock'
  /** Hands out its items. */
  | 'dispense_items'
  /** Hands out what remains of every medicament, and completes the prescription. */
  | 'dispense_rest';

/** One kind's rules. */
export interface EventKind {
  /** The roles that may make it; the operation may narrow further (issuer, lock holder, actor). */
  readonly makers: readonly Role[];
  /** What its `event_data` may carry. */
  readonly data: EventDataShape;
  /** Whether it may carry `dispenses` (items). */
  readonly items: boolean;
  /** Whether it starts the chain: `prescription_hash` present, shown without hash and signature. */
  readonly startsChain: boolean;
  /** Whether its actor may cancel it (SPEC.md §5). */
  readonly cancellable: boolean;
  /** How it folds into the state. */
  readonly fold: FoldEffect;
  /**
   * Whether a pharmacy sees it in the feed when another actor made it, on a prescription it has
   * acted on (docs/decisions.md "Who sees which events").
   */
  readonly seenByOthers: boolean;
  /**
   * Whether its actor is then involved in the prescription (SPEC.md §10 "Who sees what"): a
   * pharmacy that has made one sees the events of others after it in the feed, and the variant
   * with transactions for a link whose signature fails. A lock or unlock alone involves no one.
   */
  readonly involves: boolean;
}

/** The table. */
export const EVENT_KINDS = {
  create: {
    makers: ['prescriber'],
    data: 'empty',
    items: false,
    startsChain: true,
    cancellable: false,
    fold: 'none',
    seenByOthers: false,
    involves: false,
  },
  partial_dispense: {
    makers: ['pharmacist'],
    data: 'dispense',
    items: true,
    startsChain: false,
    cancellable: true,
    fold: 'dispense_items',
    seenByOthers: true,
    involves: true,
  },
  full_dispense: {
    makers: ['pharmacist'],
    data: 'dispense',
    items: true,
    startsChain: false,
    cancellable: true,
    fold: 'dispense_rest',
    seenByOthers: true,
    involves: true,
  },
  revoke: {
    makers: ['prescriber'],
    data: 'empty',
    items: false,
    startsChain: false,
    cancellable: false,
    fold: 'revoke',
    seenByOthers: true,
    involves: false,
  },
  cancel: {
    makers: ['prescriber', 'pharmacist'],
    data: 'cancel',
    items: false,
    startsChain: false,
    cancellable: true,
    fold: 'cancel',
    seenByOthers: true,
    involves: true,
  },
  lock: {
    makers: ['prescriber', 'pharmacist'],
    data: 'lock',
    items: false,
    startsChain: false,
    cancellable: false,
    fold: 'lock',
    seenByOthers: true,
    involves: false,
  },
  unlock: {
    makers: ['prescriber', 'pharmacist'],
    data: 'unlock',
    items: false,
    startsChain: false,
    cancellable: false,
    fold: 'unlock',
    seenByOthers: true,
    involves: false,
  },
} as const satisfies Record<EventType, EventKind>;

/** The kind of events of `type`. */
export function eventKind(type: EventType): EventKind {
  return EVENT_KINDS[type];
}
