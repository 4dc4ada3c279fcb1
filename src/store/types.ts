/**
 * The narrow storage interface of erx (STYLE.md point 5): one implementation per engine
 * (`sqlite/`, `postgres/`), one contract suite for both. The store answers reads and writes and
 * never calls its caller back: an append's decision is made by the service on a chain the store
 * read, and handed to the store as data (`service/append.ts`).
 */
import type { CatalogStore } from './catalog.js';
import type { LogStore } from './log.js';
import type {
  ClientStore,
  FeedStore,
  IdempotencyStore,
  PrescriptionStore,
  VerifiedHeadStore,
} from './parts.js';
import type { AppendDecision, ChainRead, ChainState, EventRow, PrescriptionRow } from './rows.js';

export type * from './rows.js';
export type * from './parts.js';

/** How a chain is read (`Store.readChain`). */
export interface ChainReadOptions {
  /**
   * False: a read for one decision, which the SQLite store answers from its memo when it has the
   * chain but does not count towards remembering it (most chains are dispensed once in a while).
   * Default true.
   */
  readonly remember?: boolean;
}

/**
 * A prescription's chain read for an append and held against the appends of other instances
 * until released: PostgreSQL holds the prescription's row lock (`SELECT … FOR UPDATE`) in an open
 * transaction; SQLite holds nothing and compares the head when it writes. Inside one process the
 * caller serialises its appends per prescription (`service/append.ts`).
 */
export interface HeldChain {
  readonly state: ChainState;
  /**
   * Writes `decision` (its event follows `state`'s head) like {@link Store.appendEvent} with
   * `state`'s head as the expected one. Once at most; the hold ends with it either way.
   */
  append(decision: AppendDecision): Promise<void>;
  /** Ends the hold, writing nothing if {@link append} was not called; safe to call again. */
  release(): Promise<void>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /** The product catalogue (`./catalog.ts`). */
  readonly catalog: CatalogStore;
  /** The transparency log's tree, checkpoints and cosignatures (`./log.ts`). */
  readonly log: LogStore;
  /** Clients and tokens of the embedded token service. */
  readonly clients: ClientStore;
  /** The event feed. */
  readonly feed: FeedStore;
  /** Remembered calls (`Idempotency-Key`). */
  readonly idempotency: IdempotencyStore;
  /** Sealed verified heads. */
  readonly verifiedHeads: VerifiedHeadStore;
  /** Every prescription: ids, count, terms of old rows. */
  readonly prescriptions: PrescriptionStore;
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
  /**
   * The chain as committed (the prescription and every event, from one snapshot), with the
   * snapshot name of what was read (`verify` caches by it); undefined if there is no such
   * prescription.
   */
  readChain(prescriptionId: string, options?: ChainReadOptions): Promise<ChainRead | undefined>;
  /** The chain of `prescriptionId` read and held for an append; undefined if there is none. */
  holdChain(prescriptionId: string): Promise<HeldChain | undefined>;
  /**
   * Writes `decision` in one transaction (its event, the remembered call, the seal) and moves the
   * prescription's head to the event, only if the head still is `expectedHead`. Signals
   * `StaleHead` when it is not (another process or instance appended meanwhile, or there is no
   * such prescription) and `IdempotencyRace` when the remembered call exists (`./races.ts`);
   * nothing is written then.
   */
  appendEvent(decision: AppendDecision, expectedHead: string): Promise<void>;
  /** One event by its id. */
  getEvent(eventId: string): Promise<EventRow | undefined>;
}
