/**
 * The rows of erx's store (`./types.ts`), as both engines read and write them. Rows hold no
 * patient data (SPEC.md §3).
 */

/** A prescription as stored: identifiers, issuer and the reduced medicament list only. */
export interface PrescriptionRow {
  id: string;
  /** Issuer label as written into the link's `i` (`"<name> (<actor id>)"`). */
  issuer: string;
  /** Token subject of the prescriber who created it (ownership of revoke/unlock). */
  issuerActor: string;
  /** Unix seconds; the link's `t`. */
  issuedAt: number;
  /** `{Id, IdType, NbPack, Rep, Subs}` of each medicament, needed to validate dispensations. */
  medicaments: MedicamentRef[];
  /** Hash of the last event of the chain (SPEC.md §6 `logs_check_passed`). */
  headHash: string;
  /**
   * When the prescription expires and the signature over the copies the rules decide from
   * (`service/terms.ts`); absent on rows written before prescriptions expired.
   */
  terms?: StoredTerms;
}

export interface MedicamentRef {
  Id: string;
  IdType: number;
  NbPack?: number;
  /** CHMED16A repetitions. */
  Rep?: number;
  Subs?: number;
  /** CHMED23A repetitions (`reps`), present on every CHMED23A medicament (`service/rules`). */
  Reps?: RepetitionRef;
}

/** A CHMED23A repetition object: 1 a count `v`, 2 a duration `d` in unit `u`, 3 both. */
export interface RepetitionRef {
  t: number;
  v?: number;
  d?: number;
  u?: number;
}

/** What a prescription row keeps beside its copies so that the rules can trust them. */
export interface StoredTerms {
  /** Unix milliseconds (SPEC.md §10 `expires_at`). */
  expiresAt: number;
  /** Lowercase hex Ed25519 signature by the link keys over the row's copies and `expiresAt`. */
  signature: string;
}

/** One ledger event exactly as signed: `body` is the canonical JSON text, never re-serialised. */
export interface EventRow {
  prescriptionId: string;
  seq: number;
  id: string;
  parentHash: string | null;
  body: string;
  hash: string;
  signature: string;
}

/** A remembered mutating call (`Idempotency-Key`, SPEC.md §5). */
export interface IdempotencyRow {
  actor: string;
  key: string;
  /** SHA-256 of method, path and body: a reused key with another request is refused. */
  requestHash: string;
  prescriptionId: string;
  eventId: string;
  /** What the answer needs beyond the event: for create, the link's `s` (keys rotate). */
  answer?: string;
  /** Unix milliseconds. */
  createdAt: number;
}

export type Role = 'prescriber' | 'pharmacist';

export interface ClientRow {
  clientId: string;
  /** scrypt hash in PHC-like form; the secret itself is never stored. */
  secretHash: string;
  role: Role;
  name: string;
  description: string;
  /** Actor id used as `sub` and as event `actor` (e.g. `HIN|pharma1`). */
  sub: string;
  /** Unix milliseconds. */
  createdAt: number;
  /** A prescriber's profile as stored text (src/auth/prescriber-profile.ts); absent when none. */
  profile?: string;
}

export interface TokenRow {
  /** SHA-256 hex of the token; the token itself is never stored. */
  tokenHash: string;
  clientId: string;
  /** Unix milliseconds. */
  expiresAt: number;
  createdAt: number;
}

/**
 * What an append decided on the chain it read: the event, the call to remember, and the seal of
 * the chain's new head, handed to the store as data and written in one transaction.
 */
export interface AppendDecision {
  event: EventRow;
  idempotency?: IdempotencyRow;
  seal?: VerifiedHeadRow;
}

/** The chain as committed: the prescription and every event, signatures included. */
export interface ChainState {
  prescription: PrescriptionRow;
  events: EventRow[];
}

/** A chain as read, with a name for exactly these rows when the store can give one. */
export interface ChainRead {
  readonly state: ChainState;
  /**
   * Two reads with the same snapshot name answered exactly the same rows (the SQLite store's
   * chains read again while nothing else has committed). Undefined, the rows themselves are the
   * only identity of what was read.
   */
  readonly snapshot: string | undefined;
  /**
   * The store does not expect to answer this read again as it is: a chain read once, which the
   * SQLite store will name on its next read. What is built from it is not worth remembering.
   */
  readonly transient?: boolean;
}

/**
 * A chain head whose whole chain has passed every check of SPEC.md §6 `logs_check_passed`,
 * sealed with a key kept outside the database (`service/verified-heads.ts`), so that a restart
 * need not verify the signatures of the chain again. A seal written without the key never matches.
 */
export interface VerifiedHeadRow {
  prescriptionId: string;
  headHash: string;
  /** Lowercase hex MAC over the prescription id, the head hash and the chain's signatures. */
  seal: string;
}

/** Who reads the event feed: what they see depends on their role and actor id. */
export interface FeedViewer {
  role: Role;
  /** Token subject: the `actor` of the events it wrote, the `issuer_actor` of what it issued. */
  sub: string;
}

/**
 * A stored event with the copies of its body the feed's reads select by (migration 4): its
 * `actor`, `type` and, on a cancel, the `event_data.EventId` it `cancels`. Copies only: a reader
 * compares them with the signed body before it trusts them (`service/feed/checked-feed.ts`).
 */
export interface FeedEvent extends EventRow {
  actor: string | null;
  type: string | null;
  cancels: string | null;
}

/** The stored events beside a feed row that decide who sees it and how it is shown. */
export interface FeedEvidence {
  /** The chain's create event, whose signed actor is the issuer (reads that show issuers). */
  readonly create?: FeedEvent;
  /** The first cancel of the same prescription that names the event. */
  readonly canceller?: FeedEvent;
  /**
   * The first earlier dispense or cancel event (the kinds that involve their actor, SPEC.md §10)
   * of each actor on the same prescription; of the reader only, on a pharmacist's read.
   */
  readonly involving: readonly FeedEvent[];
}

/** One event of the feed at its place in commit order. */
export interface FeedRow {
  /** 1, 2, 3, …: the event's place among all events, in commit order, without gaps. */
  position: number;
  event: FeedEvent;
  /** A cancel event of the same prescription names this event (it is no longer cancellable). */
  cancelled: boolean;
  /** What the store read beside the event; absent once the service has checked the row. */
  evidence?: FeedEvidence;
}

/**
 * A feed row with what decides who sees it (`FeedStore.read`'s rule, `feed-rows.ts` `seesFeedRow`):
 * read once for every viewer, as the live streams do when a new event wakes them all.
 */
export interface FeedWindowRow extends FeedRow {
  /** The prescription's `issuer_actor`. */
  issuer: string;
  /** The event's `actor` and `type` as numbered (null for a body that is not JSON). */
  actor: string | null;
  type: string | null;
  /**
   * The distinct actors of the earlier dispense and cancel events of the same prescription (the
   * kinds that involve their actor, SPEC.md §10).
   */
  actorsBefore: readonly string[];
}
