/**
 * The typed failure of the link key ring. A ring that cannot be read is the operator's problem,
 * not the client's: it answers as `internal_error` (or `service_unavailable` while another process
 * holds the rotation lock), never as an invalid prescription.
 */
import { ReasonedError } from '../errors.js';

/** Why the key ring failed. */
export type KeyringErrorReason =
  /** The ring file is not a ring this code wrote (bad JSON, bad shape, inconsistent keys). */
  | 'corrupt'
  /** The ring directory or file could not be read or written (permissions, disk). */
  | 'io'
  /** Another process holds the rotation lock for too long. */
  | 'busy'
  /** A link was to be signed for a time before the current key existed. */
  | 'not_current';

const MESSAGES: Record<KeyringErrorReason, string> = {
  corrupt: 'The link signing key ring is corrupt.',
  io: 'The link signing key ring cannot be read or written.',
  busy: 'The link signing key ring is being rotated; try again.',
  not_current: 'The link signing key was not current at the issue time.',
};

/** A key-ring failure with a typed `reason`; `detail` (log only) holds the underlying cause. */
export class KeyringError extends ReasonedError<KeyringErrorReason> {
  constructor(reason: KeyringErrorReason, detail?: unknown) {
    const busy = reason === 'busy';
    super(busy ? 'service_unavailable' : 'internal_error', reason, MESSAGES, {
      causeCode: `keyring_${reason}`,
      detail,
      ...(busy ? { retryAfter: 1 } : {}),
    });
  }
}
