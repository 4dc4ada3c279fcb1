/**
 * The shapes the prescription service takes and answers (seed §2.2–2.5, SPEC.md §5–6): the API's
 * own, derived from the schemas of `src/api`, plus what a call carries besides its arguments.
 */
import type { Principal } from '../auth/index.js';

export type {
  DispenseItem,
  EventView,
  PartialDispensation,
  PrescriptionStatus,
  StatusResult,
  TamperingDetectionResult,
  VerifyFull,
  VerifyShort,
} from '../api/index.js';

/** What every mutating call carries besides its arguments. */
export interface CallContext {
  principal: Principal;
  /** The `Idempotency-Key` header (SPEC.md §5), if sent, with the request it was sent with. */
  idempotency?: CallIdempotency;
}

/** A call's `Idempotency-Key` and the fingerprint of its request. */
export interface CallIdempotency {
  readonly key: string;
  /** SHA-256 of method, path, query and body: a reused key with another request is refused. */
  readonly requestHash: string;
}

/**
 * The answer to create: the link and the id. Not a wire shape: the route answers it as the API's
 * `CreateResult` (`SignedPrescriptionData`, `prescription_id`) or draws it as a QR code.
 */
export interface CreateResult {
  link: string;
  /**
   * A CHMED23A link too large for one QR code, as the part links of several (each fits one, in
   * order); absent when the link fits one.
   */
  parts?: string[];
  prescriptionId: string;
  /** The create event's id (its receipt is the answer's). */
  eventId: string;
}
