/**
 * Offline verification of an erx receipt: a c2sp.org/tlog-proof@v1 text whose `extra` is the
 * leaf's context (chain name, place, previous leaf; `./leaf-entry.ts`) and the event's compact JWS. The checkpoint must be signed by the log's key and cosigned by at least
 * `minWitnesses` of the trusted witnesses; the JWS must verify under its x5c leaf, which must chain
 * to a trusted root; the event hash it signs must be the leaf the inclusion proof leads from to the
 * checkpoint's root. Each failure is a {@link ReceiptError} naming the check.
 *
 * What a receipt cannot show: the event's body (so no prescription hash, and not the leaf's
 * validity at the event's time, which the chain check of verify does).
 */
import { hash } from 'node:crypto';
import { verifyEventJws } from '../ledger/verify-event-jws.js';
import type { LeafValidation, PinnedRoot, TrustStore } from '../pki/index.js';
import { validateLeaf } from '../pki/index.js';
import { LruCache } from '../lru-cache.js';
import {
  checkInclusion,
  encodeBase64,
  leafHash,
  openCheckpoint,
  parseTlogProof,
  TlogError,
} from '../tlog/index.js';
import type { CheckpointPolicy, NoteVerifier, OpenedCheckpoint, TlogProof } from '../tlog/index.js';
import { splitReceiptExtra } from './leaf-entry.js';
import { ReceiptError } from './receipt-error.js';

/** Whom a receipt must come from. */
export interface ReceiptPolicy {
  /** The roots the events' x5c chains must lead to. */
  readonly trustStore: TrustStore;
  /** The log's checkpoint keys (type 0x01); more than one while a key is being rotated. */
  readonly logKeys: readonly NoteVerifier[];
  /** The log's origin (default: the first log key's name, as erx names its key). */
  readonly origin?: string;
  /** Trusted witnesses (cosignature keys, type 0x04). */
  readonly witnesses?: readonly NoteVerifier[];
  /** How many distinct trusted witnesses must have cosigned (default 0). */
  readonly minWitnesses?: number;
}

/** What a verified receipt establishes. */
export interface VerifiedReceipt {
  /** The event hash the JWS signs: the log's leaf. */
  readonly eventHash: string;
  readonly leafIndex: number;
  readonly treeSize: number;
  readonly origin: string;
  /** The checkpoint's root hash, base64 as in the checkpoint. */
  readonly rootHash: string;
  /** Names of the trusted witnesses whose cosignatures verified, sorted. */
  readonly cosignedBy: readonly string[];
  readonly witnessesRequired: number;
  /** The signing leaf's validity window (ISO 8601) and the SHA-256 of its root's DER, hex. */
  readonly signer: { readonly notBefore: string; readonly notAfter: string; readonly root: string };
}

/** Leaves live a day; a few hundred cover a year of receipts. */
const LEAF_CACHE_SIZE = 1_000;
/** Opened checkpoints remembered (a note is under 1 KiB with a few cosignatures). */
const CHECKPOINT_CACHE_SIZE = 1_000;

/**
 * Verifies receipts under one policy; remembers validated x5c leaves (they sign many events) and
 * opened checkpoints (many receipts share one).
 */
export class ReceiptVerifier {
  readonly #policy: ReceiptPolicy;
  readonly #origin: string;
  readonly #leaves = new LruCache<Promise<LeafValidation>>(LEAF_CACHE_SIZE);
  readonly #checkpoints = new LruCache<OpenedCheckpoint>(CHECKPOINT_CACHE_SIZE);

  constructor(policy: ReceiptPolicy) {
    const origin = policy.origin ?? policy.logKeys[0]?.name;
    if (origin === undefined) throw new ReceiptError('log_signature', 'no log key given');
    this.#policy = policy;
    this.#origin = origin;
  }

  /** Verifies the receipt `text`; throws a {@link ReceiptError} naming the failed check. */
  async verify(text: string): Promise<VerifiedReceipt> {
    const proof = parse(text);
    if (proof.extra === undefined) throw new ReceiptError('no_event_signature', 'no extra line');
    const opened = this.#openCheckpoint(proof.checkpoint);
    const { checkpoint } = opened;
    const extra = splitReceiptExtra(proof.extra);
    const jws = await verifyEventJws(extra.jws, this.#policy.trustStore, (l, d, r) =>
      this.#leaf(l, d, r),
    );
    if (!jws.ok) {
      throw new ReceiptError(
        jws.check === 'chain' ? 'certificate_chain' : 'event_signature',
        jws.reason,
      );
    }
    const leaf = leafHash(extra.entry(jws.hash));
    if (!checkInclusion(proof.proof, checkpoint.size, checkpoint.root, proof.index, leaf)) {
      throw new ReceiptError('inclusion_proof', `leaf ${proof.index} in tree ${checkpoint.size}`);
    }
    return {
      eventHash: jws.hash,
      leafIndex: proof.index,
      treeSize: checkpoint.size,
      origin: checkpoint.origin,
      rootHash: encodeBase64(checkpoint.root),
      cosignedBy: [...opened.cosignedBy].sort(),
      witnessesRequired: this.#policy.minWitnesses ?? 0,
      signer: {
        notBefore: new Date(jws.leaf.notBeforeMs).toISOString(),
        notAfter: new Date(jws.leaf.notAfterMs).toISOString(),
        root: hash('sha256', jws.root.der, 'hex'),
      },
    };
  }

  /**
   * The checkpoint opened under the log's keys and the witnesses' (remembered by its note text:
   * receipts of one checkpoint share it); a bad signature is placed by opening under the log's
   * keys alone, on that failure only.
   */
  #openCheckpoint(note: string): OpenedCheckpoint {
    const log: CheckpointPolicy = { origin: this.#origin, log: this.#policy.logKeys };
    const witnesses = this.#policy.witnesses ?? [];
    let opened = this.#checkpoints.get(note);
    if (opened === undefined) {
      try {
        opened = openCheckpoint(note, { ...log, witnesses });
      } catch (error) {
        if (!(error instanceof TlogError && error.reason === 'bad_signature')) {
          throw fromTlogError(error, 'log_signature');
        }
        try {
          openCheckpoint(note, log);
        } catch (logError) {
          throw fromTlogError(logError, 'log_signature');
        }
        throw fromTlogError(error, 'witness_signature');
      }
      this.#checkpoints.set(note, opened);
    }
    const cosignedBy = opened.cosignedBy;
    const required = this.#policy.minWitnesses ?? 0;
    if (cosignedBy.length < required) {
      const missing = witnesses.map((w) => w.name).filter((n) => !cosignedBy.includes(n));
      throw new ReceiptError(
        'too_few_witnesses',
        `${cosignedBy.length} of ${required} required; ` +
          `cosigned: ${cosignedBy.join(', ') || 'none'}; without: ${missing.join(', ')}`,
      );
    }
    return opened;
  }

  /** Validates a leaf once per (leaf, root): the result does not depend on time. */
  #leaf(leafBase64: string, der: Uint8Array, root: PinnedRoot): Promise<LeafValidation> {
    const key = `${this.#policy.trustStore.roots.indexOf(root)}:${leafBase64}`;
    const cached = this.#leaves.get(key);
    if (cached !== undefined) return cached;
    const validation = validateLeaf(der, root);
    this.#leaves.set(key, validation);
    return validation;
  }
}

function parse(text: string): TlogProof {
  try {
    return parseTlogProof(text);
  } catch (error) {
    throw fromTlogError(error, 'malformed_receipt');
  }
}

/** The receipt failure of a log-side error: a malformed note or key is a malformed receipt. */
function fromTlogError(
  error: unknown,
  signatureReason: 'log_signature' | 'witness_signature' | 'malformed_receipt',
): unknown {
  if (!(error instanceof TlogError)) return error;
  const detail =
    typeof error.detail === 'string' ? `${error.reason}: ${error.detail}` : error.reason;
  switch (error.reason) {
    case 'wrong_origin':
      return new ReceiptError('wrong_origin', detail);
    case 'unverified_note':
      return new ReceiptError('log_signature', 'no signature by a trusted log key');
    case 'bad_signature':
      return new ReceiptError(
        signatureReason === 'malformed_receipt' ? 'log_signature' : signatureReason,
        detail,
      );
    default:
      return new ReceiptError('malformed_receipt', detail);
  }
}
