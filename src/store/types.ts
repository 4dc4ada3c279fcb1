/**
 * The narrow storage interface of erx (STYLE.md point 5): one implementation per engine
 * (`sqlite/`, `postgres/`), one contract suite for both. Rows hold no patient data (SPEC.md §3).
 */
import type { CatalogStore } from './catalog.js';
import type { LogStore } from './log.js';

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
  Rep?: number;
  Subs?: number;
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
 * What an append decides under the prescription's lock: the event, the call to remember, and the
 * seal of the chain's new head, all written in one transaction.
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

/** One event of the feed at its place in commit order. */
export interface FeedRow {
  /** 1, 2, 3, …: the event's place among all events, in commit order, without gaps. */
  position: number;
  event: EventRow;
  /** A cancel event of the same prescription names this event (it is no longer cancellable). */
  cancelled: boolean;
}

/**
 * A feed row with what decides who sees it (`readFeed`'s rule, `feed-rows.ts` `seesFeedRow`):
 * read once for every viewer, as the live streams do when a new event wakes them all.
 */
export interface FeedWindowRow extends FeedRow {
  /** The prescription's `issuer_actor`. */
  issuer: string;
  /** The event's `actor` and `type` as numbered (null for a body that is not JSON). */
  actor: string | null;
  type: string | null;
  /** The distinct actors of the earlier events of the same prescription. */
  actorsBefore: readonly string[];
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /** The product catalogue (`./catalog.ts`). */
  readonly catalog: CatalogStore;
  /** The transparency log's tree, checkpoints and cosignatures (`./log.ts`). */
  readonly log: LogStore;
  /** Applies pending migrations; safe to call on every start, also from several instances at once. */
  migrate(): Promise<void>;
  /** The highest applied migration version (0 on an empty database). */
  schemaVersion(): Promise<number>;
  /** Cheap round trip for readiness. */
  ping(): Promise<void>;
  close(): Promise<void>;

  /**
   * Inserts a prescription with its create event in one transaction; `AlreadyExists` if the id
   * exists, `IdempotencyRace` if the remembered call exists (`./races.ts`).
   */
  insertPrescription(row: PrescriptionRow, create: AppendDecision): Promise<void>;
  getPrescription(id: string): Promise<PrescriptionRow | undefined>;
  getEvents(prescriptionId: string): Promise<EventRow[]>;
  getChain(prescriptionId: string): Promise<ChainState | undefined>;
  /** {@link getChain} with the snapshot name of what was read (`verify` caches by it). */
  readChain(prescriptionId: string): Promise<ChainRead | undefined>;
  /**
   * Serialises appends per prescription: reads the chain under the prescription's lock, lets
   * `decide` build the next event (or throw, appending nothing), then writes it and moves the head.
   * Signals `NoSuchPrescription`, `StaleHead` or `IdempotencyRace` (`./races.ts`).
   */
  appendEvent(
    prescriptionId: string,
    decide: (state: ChainState) => Promise<AppendDecision>,
  ): Promise<EventRow>;
  /** The sealed verified head of a prescription, if one was stored. */
  getVerifiedHead(prescriptionId: string): Promise<VerifiedHeadRow | undefined>;
  /** Stores (or replaces) the sealed verified head of a prescription. */
  putVerifiedHead(row: VerifiedHeadRow): Promise<void>;
  /**
   * Gives signed terms to a prescription written before they existed (`erx migrate`); false, and
   * nothing written, when it has terms already.
   */
  addTerms(prescriptionId: string, terms: StoredTerms): Promise<boolean>;
  /** Ids of all prescriptions in a stable order, in pages (for `erx audit verify`). */
  listPrescriptionIds(after: string | undefined, limit: number): Promise<string[]>;
  countPrescriptions(): Promise<number>;

  /**
   * Gives the events committed since the last call their feed positions, in commit order, after
   * every position given before (PostgreSQL: one instance at a time); how many it numbered. On
   * SQLite events are numbered in the transaction that writes them and this numbers nothing.
   * On PostgreSQL an event has no position, and no reader sees it, until some instance has called
   * this after its commit; it answers 0 at once while another instance is numbering (which may
   * not see the latest commits: call again later). Events numbered by one call are in chain
   * order per prescription, not in commit order among prescriptions.
   */
  sequenceFeed(): Promise<number>;
  /** The highest feed position given so far (0 before any). */
  feedHead(): Promise<number>;
  /**
   * The events `viewer` may see with positions in (`after`, `upTo`], in position order, at most
   * `limit`: a prescriber every event of the prescriptions it issued; a pharmacist its own events
   * and the dispense, lock, unlock, cancel and revoke events of others on a prescription it had
   * written an event on before (an earlier position).
   */
  readFeed(viewer: FeedViewer, after: number, upTo: number, limit: number): Promise<FeedRow[]>;
  /**
   * Every event with a position in (`after`, `upTo`], in position order, at most `limit`, each
   * with what decides who sees it: `readFeed` for all viewers at once, filtered by `seesFeedRow`.
   */
  readFeedWindow(after: number, upTo: number, limit: number): Promise<FeedWindowRow[]>;
  /** Ids of the prescriptions `issuerActor` issued, after `after` in id order, at most `limit`. */
  listIssued(issuerActor: string, after: string | undefined, limit: number): Promise<string[]>;

  getIdempotency(actor: string, key: string): Promise<IdempotencyRow | undefined>;
  getEvent(eventId: string): Promise<EventRow | undefined>;
  /** Forgets remembered calls older than `before` (unix ms). */
  purgeIdempotency(before: number): Promise<number>;

  /** Registers a client; `AlreadyExists` if its id is taken. */
  addClient(row: ClientRow): Promise<void>;
  getClient(clientId: string): Promise<ClientRow | undefined>;
  listClients(): Promise<ClientRow[]>;
  removeClient(clientId: string): Promise<boolean>;
  /** Sets (or, with null, removes) the profile of `clientId`; false if there is no such client. */
  setClientProfile(clientId: string, profile: string | null): Promise<boolean>;
  /**
   * Replaces the secret hash of `clientId` with `replacement` if it is still `expected` (the
   * token service binding older hashes to the pepper); false, and nothing written, otherwise.
   */
  replaceClientSecretHash(
    clientId: string,
    expected: string,
    replacement: string,
  ): Promise<boolean>;
  insertToken(row: TokenRow): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRow | undefined>;
  purgeTokens(before: number): Promise<number>;
}
