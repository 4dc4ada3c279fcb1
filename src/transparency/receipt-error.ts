/**
 * Why a receipt (a c2sp.org/tlog-proof@v1 text carrying an event's JWS) did not verify: one reason
 * per check of `verify-receipt.ts`, its fixed message naming the check, and `detail` saying what
 * exactly (the ledger's or the log's own reason, the witnesses missing).
 */
import { ReasonedError } from '../errors.js';

/** The check a receipt failed. */
export type ReceiptFailureReason =
  /** Not a tlog-proof@v1 text, or its checkpoint is no signed checkpoint note. */
  | 'malformed_receipt'
  /** The proof has no `extra` line, where erx puts the event's JWS. */
  | 'no_event_signature'
  /** The event's JWS is malformed or its ES384 signature does not verify. */
  | 'event_signature'
  /** The JWS's x5c leaf does not chain to a trusted root, or may not sign. */
  | 'certificate_chain'
  /** The checkpoint is not signed by the log's key, or that signature does not verify. */
  | 'log_signature'
  /** The checkpoint names another log than the log key's. */
  | 'wrong_origin'
  /** A trusted witness's cosignature on the checkpoint does not verify. */
  | 'witness_signature'
  /** Fewer trusted witnesses cosigned the checkpoint than required. */
  | 'too_few_witnesses'
  /** The inclusion proof does not lead from the event's leaf to the checkpoint's root. */
  | 'inclusion_proof';

const MESSAGES: Record<ReceiptFailureReason, string> = {
  malformed_receipt: 'The receipt is not a tlog-proof with a signed checkpoint.',
  no_event_signature: 'The receipt carries no event signature.',
  event_signature: "The event's signature does not verify.",
  certificate_chain: "The event signer's certificate does not chain to the trusted root.",
  log_signature: "The checkpoint is not signed by the log's key.",
  wrong_origin: 'The checkpoint is of another log.',
  witness_signature: "A trusted witness's cosignature does not verify.",
  too_few_witnesses: 'Too few trusted witnesses cosigned the checkpoint.',
  inclusion_proof: "The inclusion proof does not lead to the checkpoint's root.",
};

/** A receipt that did not verify; `detail` says what exactly. */
export class ReceiptError extends ReasonedError<ReceiptFailureReason> {
  constructor(reason: ReceiptFailureReason, detail?: string) {
    super('bad_request', reason, MESSAGES, { causeCode: `receipt_${reason}`, detail });
  }

  /** The message with its detail, for a command line or a log line. */
  describe(): string {
    return typeof this.detail === 'string' && this.detail.length > 0
      ? `${this.message} (${this.detail})`
      : this.message;
  }
}
