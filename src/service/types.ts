/** The shapes the prescription service takes and answers (seed §2.2–2.5, SPEC.md §5–6). */
import type { Principal } from '../auth/index.js';

/** One item of a dispense request body (seed §2.2). */
export interface DispenseItem {
  id: string;
  amount: number;
  substitute?: string;
  substitute_id_type?: number;
}

/** A partial dispensation record of the verify answer (seed §2.4). */
export interface PartialDispensation {
  amount: number;
  timestamp: string;
  dispensed_by: string;
  medicine_id: string;
  substitute: string;
  substitute_id_type: number;
}

/** An event as the verify answer shows it (seed §2.5). */
export interface EventView {
  id: string;
  type: string;
  reference: string;
  event_data: Record<string, unknown>;
  dispenses?: DispenseItem[];
  timestamp: string;
  actor: string;
  actor_name: string;
  cancellable: boolean;
  hash?: string;
  parent_hash?: string;
  signature?: string;
  prescription_hash?: string;
}

export interface TamperingDetectionResult {
  prescription_url_valid: boolean;
  prescription_hash_check_passed: boolean;
  logs_check_passed: boolean;
}

/** The verify answer without transactions (seed §2.3). */
export interface VerifyShort {
  prescription_id: string;
  issued_at: string;
  issued_by: string;
  valid: boolean;
  revoked: boolean;
  dispensed: boolean;
}

/** The verify answer with transactions (seed §2.3). */
export interface VerifyFull extends VerifyShort {
  locked: boolean;
  locked_at?: string;
  partial_dispensations: PartialDispensation[];
  events: EventView[];
  tampering_detection_result: TamperingDetectionResult;
}

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

/** The answer to create: the link and the id (seed-style `SignedPrescriptionData`). */
export interface CreateResult {
  link: string;
  prescriptionId: string;
}
