/**
 * The `tampering_detection_result` of a verify answer (seed §2.3, SPEC.md §6): the three flags,
 * each from its own check. The link check is the caller's (it knows the configured address and
 * the link keys), so it arrives as a boolean.
 */
import type { ChainVerification } from './verify-chain.js';
import { checkPrescriptionHash } from './prescription-hash.js';

/** Seed §2.3 field names. */
export interface TamperDetectionResult {
  prescription_url_valid: boolean;
  prescription_hash_check_passed: boolean;
  logs_check_passed: boolean;
}

export interface TamperDetectionInput {
  /** Base address is the configured one and the link's `s` verifies (SPEC.md §6). */
  readonly prescriptionUrlValid: boolean;
  /** The link's `CHMED16A1<data>` string. */
  readonly chmed: string;
  /** The result of `verifyChain` for the prescription. */
  readonly chain: ChainVerification;
}

/** Combines the three tamper checks of SPEC.md §6. */
export function tamperDetectionResult(input: TamperDetectionInput): TamperDetectionResult {
  return {
    prescription_url_valid: input.prescriptionUrlValid,
    prescription_hash_check_passed: checkPrescriptionHash(input.chain.bodies[0], input.chmed),
    logs_check_passed: input.chain.ok,
  };
}
