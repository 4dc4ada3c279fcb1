/** The service's answers as the page reads them (seed §2.3–2.6, §7; SPEC.md §5–6). */

/** One dispense item (seed §2.2). */
export interface DispenseItem {
  id: string;
  amount: number;
  substitute?: string;
  substitute_id_type?: number;
}

/** A partial dispensation record (seed §2.4). */
export interface PartialDispensation {
  amount: number;
  timestamp: string;
  dispensed_by: string;
  medicine_id: string;
  substitute: string;
  substitute_id_type: number;
}

/** An event (seed §2.5, SPEC.md §7). */
export interface LedgerEvent {
  id: string;
  type: string;
  reference: string;
  event_data: Record<string, unknown>;
  dispenses?: DispenseItem[];
  timestamp: string;
  actor: string;
  actor_name: string;
  cancellable: boolean;
}

/** The verify answer; the transaction fields only with a token (seed §2.3). */
export interface VerifyResult {
  prescription_id: string;
  issued_at: string;
  issued_by: string;
  valid: boolean;
  revoked: boolean;
  dispensed: boolean;
  locked?: boolean;
  locked_at?: string;
  partial_dispensations?: PartialDispensation[];
  events?: LedgerEvent[];
  tampering_detection_result?: {
    prescription_url_valid: boolean;
    prescription_hash_check_passed: boolean;
    logs_check_passed: boolean;
  };
}

/** One violation of a refused document (SPEC.md §4). */
export interface Violation {
  path: string;
  message: string;
}

/** The error body (seed §7, SPEC.md §8). */
export interface ErrorBody {
  error_code: string;
  message: string;
  cause?: { StatusCode?: number; Message?: string; Code?: string };
  violations?: Violation[];
}

/** The answer to create with `output-format=data`. */
export interface CreateResult {
  SignedPrescriptionData: string;
  prescription_id: string;
}

/** An active token's information (seed §2.6 plus `scope` and `sub`, SPEC.md §5). */
export interface TokenInfo {
  active: boolean;
  name?: string;
  scope?: string;
  sub?: string;
  expires_in?: number;
}
