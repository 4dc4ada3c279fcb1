/** What the prescription service runs on; assembled once at start (see `src/server`). */
import type { ChainBounds } from '../config/chain-bounds.js';
import type { KeyedMutex } from '../keyed-mutex.js';
import type { Clock, EventType, EventVerifier } from '../ledger/index.js';
import type { LinkSigner } from '../link/index.js';
import type { Signer } from '../pki/index.js';
import type { EventRow, Store } from '../store/types.js';
import type { LoggedPlace } from '../transparency/chain-in-log.js';
import type { IssuedAtFormat } from './view/issued-at.js';
import type { VerifyKeys } from './verification/link-facts.js';
import type { VerificationCache } from './verification/verification-cache.js';
import type { TermsVerifier } from './rules/terms.js';
import type { VerifiedHeads } from './verification/verified-heads.js';

export interface ServiceDeps {
  readonly store: Store;
  /**
   * Serialises the appends of one prescription inside this process (`./append.ts`); one per
   * runtime, shared by everything that appends through it.
   */
  readonly appendLocks: KeyedMutex;
  /** The Ed25519 link keys: signs new links, verifies old ones (SPEC.md §3). */
  readonly linkKeys: LinkSigner & VerifyKeys;
  /** The ES384 leaf signer of the ledger (SPEC.md §7). */
  readonly signer: Signer;
  /** Verifies event signatures against the pinned root, with its memo of verified events. */
  readonly verifier: EventVerifier;
  /** What verify remembers: link facts and answers, by explicit keys. */
  readonly cache: VerificationCache;
  /** Checks prescriptions' terms, remembering those that verified (the verification memory's). */
  readonly terms: TermsVerifier;
  /** Sealed verified heads, so verify is warm after a restart. */
  readonly verifiedHeads: VerifiedHeads;
  /** The configured `prescription_url`. */
  readonly prescriptionUrl: string;
  /** `issued_at` in the configured zone (`ERX_TIMEZONE`). */
  readonly issuedAt: IssuedAtFormat;
  /** How long a prescription is valid after its `Dt` at least (`ERX_PRESCRIPTION_VALIDITY`). */
  readonly prescriptionValidityMs: number;
  /** How long a lock holds (`ERX_LOCK_TTL`). */
  readonly lockTtlMs: number;
  /** How long and how fast one prescription's history may grow (`ERX_CHAIN_*`). */
  readonly chainBounds: ChainBounds;
  /** The instance's one clock: unix ms for the rules, nanoseconds for event times. */
  readonly clock: Clock;
  /**
   * The transparency log's check of a chain (SPEC.md §6 `logs_check_passed`): the index of the
   * first event the log's leaves of its chain contradict (`src/transparency/chain-in-log.ts`), or
   * undefined (always, with the log off).
   */
  readonly firstNotInLog: (events: readonly EventRow[]) => Promise<number | undefined>;
  /**
   * The same check's leaves before a decision: the places the log holds for a prescription's
   * chain (none with the log off), which the decision compares with the chain under its lock.
   */
  readonly loggedPlaces: (prescriptionId: string) => Promise<readonly LoggedPlace[]>;
  /** Told of every appended event (metrics; the log takes its own events in unchecked). */
  readonly onAppend?: (type: EventType, event: EventRow) => void;
}
