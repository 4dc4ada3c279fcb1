/** What the prescription service runs on; assembled once at start (see `src/server`). */
import type { EventVerifier } from '../ledger/index.js';
import type { LinkSigner } from '../link/index.js';
import type { Signer } from '../pki/index.js';
import type { EventType } from '../ledger/index.js';
import type { Store } from '../store/types.js';
import type { VerifyKeys } from './link-facts.js';

export interface ServiceDeps {
  readonly store: Store;
  /** The Ed25519 link keys: signs new links, verifies old ones (SPEC.md §3). */
  readonly linkKeys: LinkSigner & VerifyKeys;
  /** The ES384 leaf signer of the ledger (SPEC.md §7). */
  readonly signer: Signer;
  /** Verifies event signatures and chains against the pinned root, with its memo. */
  readonly verifier: EventVerifier;
  /** The configured `prescription_url`. */
  readonly prescriptionUrl: string;
  /** Zone of `issued_at` in verify answers. */
  readonly timezone: string;
  /** Current time in unix milliseconds (injectable for tests). */
  readonly now: () => number;
  /** Told of every appended event (metrics). */
  readonly onAppend?: (type: EventType) => void;
}
