/**
 * The state of a prescription folded from its events and its terms (SPEC.md §5 "Rules of state",
 * §10): revoked, dispensed and by which event, the packages dispensed of each medicament, the lock
 * that holds, and which events are cancelled. Pure; the chain and the signed terms are the only
 * sources of truth.
 */
import { EVENT_KINDS, tryParseTimestamp } from '../../ledger/index.js';
import type { EventBody, FoldEffect } from '../../ledger/index.js';
import type { Cancels } from './cancel-chains.js';
import { foldDispenses } from './handed-out.js';
import type { Terms } from './terms.js';

export interface LockInfo {
  actor: string;
  actorName: string;
  /** Timestamp of the lock event. */
  at: string;
  /** When it lapses, unix milliseconds (SPEC.md §10). */
  expiresAt: number;
}

/** One medicament's packages: prescribed, and dispensed by the events that stand. */
export interface MedicamentState extends MedicamentTermsOf {
  readonly dispensed: number;
}

/** The dispense event that completed the prescription (SPEC.md §10 completion). */
export interface Completion {
  /** Its timestamp. */
  readonly at: string;
  /** Its actor, the actor id (SPEC.md §10, as HIN answers `dispensed_by`: `HIN|pharma1`). */
  readonly by: string;
}

type MedicamentTermsOf = Terms['medicaments'][number];

export interface ChainFacts {
  revoked: boolean;
  /**
   * True while a non-cancelled `full_dispense` exists or every medicament is dispensed up to its
   * prescribed quantity (SPEC.md §5).
   */
  dispensed: boolean;
  /** Set when {@link dispensed}: the event that made it so. */
  completion: Completion | undefined;
  /** Every medicament of the prescription, in document order. */
  medicaments: readonly MedicamentState[];
  /** When the prescription expires (unix ms), and whether it had at the time of the facts. */
  expiresAt: number;
  expired: boolean;
  /** The lock that holds at the time the facts were folded for; a lapsed one is none. */
  lock: LockInfo | undefined;
  /** Ids of events undone now by a standing cancel (SPEC.md §5, `cancel-chains.ts`). */
  cancelled: ReadonlySet<string>;
  /** Ids of events a cancel has named, standing or not: they cannot be cancelled again. */
  named: ReadonlySet<string>;
  /** True while a non-cancelled `full_dispense` exists (SPEC.md §5 HIN's closing step). */
  fullDispensed: boolean;
  /** Events by id. */
  byId: ReadonlyMap<string, EventBody>;
}

/**
 * How long a lock recorded without `event_data.expires_at` (before locks lapsed) holds: the
 * default of `ERX_LOCK_TTL`.
 */
export const UNRECORDED_LOCK_TTL_MS = 15 * 60_000;

/** When the lock of event `e` lapses: its recorded `expires_at`, else the default after it. */
function lockExpiry(e: EventBody): number {
  const recorded = e.event_data.expires_at;
  const parsed = typeof recorded === 'string' ? tryParseTimestamp(recorded) : undefined;
  if (parsed !== undefined) return parsed.date.getTime();
  return (tryParseTimestamp(e.timestamp)?.date.getTime() ?? 0) + UNRECORDED_LOCK_TTL_MS;
}

/**
 * Folds `events` (in chain order) into the facts the rules and the verify answer need, under the
 * prescription's `terms` at time `now` (unix ms). Cancelled events count as never made. Each
 * dispense counts what it handed out when it was made ({@link handedOut}); the prescription is
 * dispensed from the first standing dispense event after which every medicament has reached its
 * prescribed quantity, or that is a full dispensation (SPEC.md §5, §10).
 */
export function chainFacts(
  events: readonly EventBody[],
  terms: Pick<Terms, 'medicaments' | 'expiresAt'>,
  now: number,
): ChainFacts {
  const { medicaments, expiresAt } = terms;
  const { handed, cancels } = foldDispenses(events, medicaments);
  const { cancelled } = cancels;
  const byId = new Map<string, EventBody>();
  const dispensed = new Map(medicaments.map((m) => [m.id, 0]));
  let revoked = false;
  let lock: LockInfo | undefined;
  let completion: Completion | undefined;
  let fullDispensed = false;
  for (const e of events) {
    byId.set(e.id, e);
    const fold = EVENT_KINDS[e.type].fold;
    switch (fold) {
      case 'revoke':
        revoked = true;
        break;
      case 'lock':
        lock = {
          actor: e.actor,
          actorName: e.actor_name,
          at: e.timestamp,
          expiresAt: lockExpiry(e),
        };
        break;
      case 'unlock':
        lock = undefined;
        break;
      case 'dispense_items':
      case 'dispense_rest':
        if (cancelled.has(e.id)) break;
        fullDispensed ||= fold === 'dispense_rest';
        for (const [id, amount] of handed.get(e.id) ?? []) {
          dispensed.set(id, (dispensed.get(id) ?? 0) + amount);
        }
        if (
          completion === undefined &&
          (fold === 'dispense_rest' ||
            medicaments.every((m) => (dispensed.get(m.id) ?? 0) >= m.prescribed))
        ) {
          completion = { at: e.timestamp, by: e.actor };
        }
        break;
      case 'none':
      case 'cancel':
        break;
      default:
        return unhandled(fold);
    }
  }
  return {
    revoked,
    dispensed: completion !== undefined,
    completion,
    medicaments: medicaments.map((m) => ({ ...m, dispensed: dispensed.get(m.id) ?? 0 })),
    expiresAt,
    expired: now > expiresAt,
    lock: lock !== undefined && lock.expiresAt > now ? lock : undefined,
    cancelled,
    named: cancels.named,
    fullDispensed,
    byId,
  };
}

function unhandled(fold: never): never {
  throw new Error(`unhandled fold effect ${String(fold as FoldEffect)}`);
}

/**
 * Whether `event` can still be cancelled: its kind can be, and no cancel has named it yet (an
 * undone cancel is undone again by cancelling the cancel that undid it).
 */
export function isCancellable(
  event: Pick<EventBody, 'id' | 'type'>,
  named: Cancels['named'],
): boolean {
  return EVENT_KINDS[event.type].cancellable && !named.has(event.id);
}

// The cancel fold's entry point, where the service's callers have always found it.
export { cancelledIn } from './cancel-chains.js';
