/**
 * The parts of the store beside the chains (`Store.clients`, `.feed`, `.idempotency`,
 * `.verifiedHeads`, `.prescriptions`): each a few reads and writes of its own tables, the same on
 * both engines, checked by the one contract suite (test/store-contract).
 */
import type {
  ClientRow,
  FeedRow,
  FeedViewer,
  FeedWindowRow,
  IdempotencyRow,
  StoredTerms,
  TokenRow,
  VerifiedHeadRow,
} from './rows.js';

/** The embedded token service's clients and their tokens (hashes only). */
export interface ClientStore {
  /** Registers a client; `AlreadyExists` if its id is taken. */
  add(row: ClientRow): Promise<void>;
  get(clientId: string): Promise<ClientRow | undefined>;
  /** Every client, in byte order of id. */
  list(): Promise<ClientRow[]>;
  /** Removes a client and its tokens; false if there was none. */
  remove(clientId: string): Promise<boolean>;
  /** Sets (or, with null, removes) the profile of `clientId`; false if there is no such client. */
  setProfile(clientId: string, profile: string | null): Promise<boolean>;
  /**
   * Replaces the secret hash of `clientId` with `replacement` if it is still `expected` (the
   * token service binding older hashes to the pepper); false, and nothing written, otherwise.
   */
  replaceSecretHash(clientId: string, expected: string, replacement: string): Promise<boolean>;
  insertToken(row: TokenRow): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRow | undefined>;
  /** Forgets tokens that expired before `before` (unix ms); how many. */
  purgeTokens(before: number): Promise<number>;
}

/** The event feed: every event at its place in commit order, and who sees which. */
export interface FeedStore {
  /**
   * Gives the events committed since the last call their feed positions, in commit order, after
   * every position given before (PostgreSQL: one instance at a time); how many it numbered. On
   * SQLite events are numbered in the transaction that writes them and this numbers nothing.
   * On PostgreSQL an event has no position, and no reader sees it, until some instance has called
   * this after its commit; it answers 0 at once while another instance is numbering (which may
   * not see the latest commits: call again later). Events numbered by one call are in chain
   * order per prescription, not in commit order among prescriptions.
   */
  sequence(): Promise<number>;
  /** The highest feed position given so far (0 before any). */
  head(): Promise<number>;
  /**
   * The events `viewer` may see with positions in (`after`, `upTo`], in position order, at most
   * `limit`: a prescriber every event of the prescriptions it issued; a pharmacist its own events
   * and the dispense, lock, unlock, cancel and revoke events of others on a prescription it had
   * written an event on before (an earlier position).
   */
  read(viewer: FeedViewer, after: number, upTo: number, limit: number): Promise<FeedRow[]>;
  /**
   * Every event with a position in (`after`, `upTo`], in position order, at most `limit`, each
   * with what decides who sees it: {@link read} for all viewers at once, filtered by `seesFeedRow`.
   */
  readWindow(after: number, upTo: number, limit: number): Promise<FeedWindowRow[]>;
  /** Ids of the prescriptions `issuerActor` issued, after `after` in id order, at most `limit`. */
  listIssued(issuerActor: string, after: string | undefined, limit: number): Promise<string[]>;
}

/** Remembered mutating calls (`Idempotency-Key`, SPEC.md §5); written with their event. */
export interface IdempotencyStore {
  get(actor: string, key: string): Promise<IdempotencyRow | undefined>;
  /** Forgets remembered calls older than `before` (unix ms); how many. */
  purge(before: number): Promise<number>;
}

/** Sealed verified heads (`service/verified-heads.ts`); a new head's seal is written with it. */
export interface VerifiedHeadStore {
  /** The sealed verified head of a prescription, if one was stored. */
  get(prescriptionId: string): Promise<VerifiedHeadRow | undefined>;
  /** Stores (or replaces) the sealed verified head of a prescription. */
  put(row: VerifiedHeadRow): Promise<void>;
}

/** The prescriptions as a whole, for the commands that walk them (`erx audit`, `erx migrate`). */
export interface PrescriptionStore {
  /** Ids of all prescriptions in a stable order, in pages. */
  ids(after: string | undefined, limit: number): Promise<string[]>;
  count(): Promise<number>;
  /**
   * Gives signed terms to a prescription written before they existed (`erx migrate`); false, and
   * nothing written, when it has terms already.
   */
  addTerms(prescriptionId: string, terms: StoredTerms): Promise<boolean>;
}
