/** What the prescription service runs on; assembled once at start (see `src/server`). */
import type { Clock, EventType, EventVerifier } from '../ledger/index.js';
import type { LinkSigner } from '../link/index.js';
import type { Signer } from '../pki/index.js';
import type { EventRow, Store } from '../store/types.js';
import type { IssuedAtFormat } from './issued-at.js';
import type { VerifyKeys } from './link-facts.js';
import type { VerificationCache } from './verification-cache.js';
import type { TermsVerifier } from './terms.js';
import type { VerifiedHeads } from './verified-heads.js';

export interface ServiceDeps {
  readonly store: Store;
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
  /** The instance's one clock: unix ms for the rules, nanoseconds for event times. */
  readonly clock: Clock;
  /**
   * The transparency log's check of a chain (SPEC.md §6 `logs_check_passed`): the index of the
   * first event a checkpoint covers that is not its leaf there, or undefined (always, with the
   * log off).
   */
  readonly firstNotInLog: (events: readonly EventRow[]) => Promise<number | undefined>;
  /**
   * The same check before a decision: the id of a prescription's newest event a checkpoint covers
   * if it is not the leaf there (its hash binds the chain below it, whose hashes and links the
   * decision checks), or undefined (always, with the log off).
   */
  readonly newestNotInLog: (prescriptionId: string) => Promise<string | undefined>;
  /** Told of every appended event (metrics). */
  readonly onAppend?: (type: EventType) => void;
}
