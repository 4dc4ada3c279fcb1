/**
 * The ledger event as it is hashed and signed (SPEC.md §7, seed §2.5): the seed's event fields
 * without `hash`, `signature` and `cancellable`, which are stored or derived beside it.
 */

/** Every event type (SPEC.md §7). */
export const EVENT_TYPES = Object.freeze([
  'create',
  'partial_dispense',
  'full_dispense',
  'revoke',
  'cancel',
  'lock',
  'unlock',
] as const);

export type EventType = (typeof EVENT_TYPES)[number];

/** One dispensed item (seed §2.2); `substitute` and `substitute_id_type` come together. */
export interface DispenseEntry {
  id: string;
  amount: number;
  substitute?: string;
  substitute_id_type?: number;
}

/** `{}`, `{EventId}` on cancel, `{reason}` on lock/unlock when a reason was given (SPEC.md §7). */
export interface EventData {
  /** Cancel: the event it undoes. */
  EventId?: string;
  /** Lock, unlock, forced dispense: why, as the caller gave it. */
  reason?: string;
  /** Lock: when it lapses (SPEC.md §10), a timestamp like `timestamp`. */
  expires_at?: string;
  /** Forced dispense (SPEC.md §10): always `true` when present. */
  force?: boolean;
  /** Forced dispense: the refusals it overrode. */
  overrides?: OverrideCode[];
}

/** The refusals `force=true` overrides (SPEC.md §10), in the order they are listed. */
export const OVERRIDE_CODES = [
  'already_dispensed',
  'quantity_exceeded',
  'substitution_not_allowed',
  'expired',
] as const;
export type OverrideCode = (typeof OVERRIDE_CODES)[number];

/** The hashed body of an event; its RFC 8785 canonical JSON is what is stored and signed. */
export interface EventBody {
  id: string;
  type: EventType;
  /** The prescription id. */
  reference: string;
  event_data: EventData;
  /** Only on dispense events that carry items. */
  dispenses?: DispenseEntry[];
  /** UTC, RFC 3339 with up to nine fractional digits (see `timestamp.ts`). */
  timestamp: string;
  actor: string;
  actor_name: string;
  /** Hash of the predecessor; absent on create (SPEC.md §7). */
  parent_hash?: string;
  /** SHA-256 hex of the link's `CHMED16A1…` string; create only (SPEC.md §3). */
  prescription_hash?: string;
}

/** One event as the ledger hands it to storage and reads it back. */
export interface SignedEvent {
  id: string;
  type: EventType;
  /** Position in the chain, 0 for the create event. */
  seq: number;
  parentHash: string | null;
  /** The exact canonical JSON bytes of the {@link EventBody}, stored as text (SPEC.md §7). */
  body: string;
  /** Lowercase hex SHA-256 of `body`. */
  hash: string;
  /** Compact JWS over `hash` (ES384, x5c). */
  signature: string;
}

/** What verification needs of a stored event (a store row satisfies it). */
export interface LedgerRecord {
  readonly id: string;
  readonly body: string;
  readonly hash: string;
  readonly signature: string;
  /** Stored position, when the store keeps one: must equal the index in the chain. */
  readonly seq?: number;
  /** Stored copy of the body's `parent_hash` (for the no-fork constraint), when kept. */
  readonly parentHash?: string | null;
}
