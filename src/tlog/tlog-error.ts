/**
 * The typed failure of the transparency log core: malformed notes, checkpoints, proofs, keys and
 * tile paths a client sent are `bad_request`; a hash store that answers wrongly or a signing key
 * that cannot be used is the operator's problem (`internal_error`).
 */
import { ReasonedError } from '../errors.js';

/** Why a transparency log operation failed. */
export type TlogErrorReason =
  /** A signed note breaks c2sp.org/signed-note (encoding, blank line, signature lines). */
  | 'malformed_note'
  /** A note text is not a c2sp.org/tlog-checkpoint body. */
  | 'malformed_checkpoint'
  /** A text is not a c2sp.org/tlog-proof@v1 proof. */
  | 'malformed_proof'
  /** A verifier key (vkey) or key name is malformed or of another signature type. */
  | 'malformed_key'
  /** A tile or entry bundle path is not one c2sp.org/tlog-tiles defines. */
  | 'malformed_tile_path'
  /** An entry bundle's length prefixes do not add up, or an entry is too long. */
  | 'malformed_entry_bundle'
  /** A signature by a known key does not verify: the whole note is refused. */
  | 'bad_signature'
  /** No known key signed the note. */
  | 'unverified_note'
  /** The checkpoint names another log than the one expected. */
  | 'wrong_origin'
  /** The inclusion proof does not lead from the leaf to the checkpoint's root. */
  | 'proof_mismatch'
  /** Too few trusted cosigners signed the checkpoint. */
  | 'too_few_cosignatures'
  /** A hash is not 32 bytes (or an event hash not 64 lowercase hex digits). */
  | 'malformed_hash'
  /** A tree size, leaf index or tile is outside the tree. */
  | 'out_of_range'
  /** The hash reader returned another number of hashes, or hashes not 32 bytes long. */
  | 'hash_reader'
  /** A private key is not an Ed25519 key. */
  | 'signing_key';

const MESSAGES: Record<TlogErrorReason, string> = {
  malformed_note: 'The signed note is malformed.',
  malformed_checkpoint: 'The checkpoint is malformed.',
  malformed_proof: 'The transparency log proof is malformed.',
  malformed_key: 'The verifier key is malformed.',
  malformed_tile_path: 'The tile path is malformed.',
  malformed_entry_bundle: 'The entry bundle is malformed.',
  bad_signature: 'A signature by a known key does not verify.',
  unverified_note: 'No trusted key signed the note.',
  wrong_origin: 'The checkpoint is of another log.',
  proof_mismatch: 'The inclusion proof does not match the checkpoint.',
  too_few_cosignatures: 'Too few trusted witnesses cosigned the checkpoint.',
  malformed_hash: 'The hash is malformed.',
  out_of_range: 'The tree size or index is out of range.',
  hash_reader: 'The stored tree hashes cannot be read.',
  signing_key: 'The transparency log signing key is not an Ed25519 key.',
};

/** Every reason, in a stable order (for registries and tests). */
export const TLOG_ERROR_REASONS: readonly TlogErrorReason[] = Object.freeze(
  Object.keys(MESSAGES) as TlogErrorReason[],
);

const OPERATOR_REASONS: ReadonlySet<TlogErrorReason> = new Set(['hash_reader', 'signing_key']);

/** A transparency log failure with a typed `reason`; `detail` (log only) says what exactly. */
export class TlogError extends ReasonedError<TlogErrorReason> {
  constructor(reason: TlogErrorReason, detail?: unknown) {
    super(OPERATOR_REASONS.has(reason) ? 'internal_error' : 'bad_request', reason, MESSAGES, {
      causeCode: `tlog_${reason}`,
      detail,
    });
  }
}
