/**
 * Failures of the ledger PKI. They are operator problems (unreadable or mismatched key files),
 * never client input, so they map to `internal_error`; `reason` says what to fix.
 */
import { reasonedError } from '../errors.js';

/** Why key material was refused. */
export type PkiErrorReason =
  | 'bad_certificate'
  | 'bad_private_key'
  | 'not_p384'
  | 'key_mismatch'
  | 'not_a_ca'
  | 'root_exists'
  | 'incomplete_root';

const MESSAGES: Readonly<Record<PkiErrorReason, string>> = {
  bad_certificate: 'PKI: the certificate cannot be read',
  bad_private_key: 'PKI: the private key cannot be read',
  not_p384: 'PKI: keys must be ECDSA P-384',
  key_mismatch: 'PKI: the private key does not belong to the certificate',
  not_a_ca: 'PKI: the root certificate is not a CA allowed to sign certificates',
  root_exists: 'PKI: a root CA already exists and is never overwritten',
  incomplete_root: 'PKI: the root CA is incomplete (certificate and key must both be present)',
};

/** Refused key material; `reason` names the problem, the message is fixed text. */
export class PkiError extends reasonedError<PkiErrorReason>('internal_error', MESSAGES) {}
