/**
 * The vocabulary of a failed chain verification (SPEC.md §6 `logs_check_passed`): which check
 * failed and why, so an audit can say more than "false".
 */
import type { CertificateFailureReason } from '../pki/index.js';
import type { BodyFailureReason } from './parse-event-body.js';

/** The check that failed, in the order they apply to each event (then `head` for the chain). */
export type ChainCheck =
  'body' | 'hash' | 'reference' | 'link' | 'signature' | 'chain' | 'time' | 'head' | 'log';

/** Why a compact JWS was refused before or by the signature check. */
export type SignatureFailureReason =
  'jws_format' | 'jws_alg' | 'jws_header' | 'jws_payload' | 'jws_signature';

/** Every reason a chain can fail. */
export type ChainFailureReason =
  | BodyFailureReason
  | 'hash_mismatch'
  | 'wrong_reference'
  | 'wrong_id'
  | 'empty_chain'
  | 'first_not_create'
  | 'create_not_first'
  | 'create_has_parent'
  | 'parent_mismatch'
  | 'seq_mismatch'
  | 'parent_column_mismatch'
  | SignatureFailureReason
  | CertificateFailureReason
  | 'timestamp_decreases'
  | 'head_mismatch'
  /** Covered by a checkpoint of the transparency log, but not the leaf at its position. */
  | 'not_in_log';

/** One failed check. */
export interface CheckFailure {
  readonly check: ChainCheck;
  readonly reason: ChainFailureReason;
}
