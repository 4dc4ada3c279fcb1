/**
 * Verifying a receipt (a c2sp.org/tlog-proof@v1 text) as the spec's §Verifying lists: the leaf
 * hash is the caller's, the checkpoint must pass the policy, the inclusion proof must lead from
 * the leaf to the checkpoint's root.
 */
import { checkInclusion } from './check-inclusion.js';
import type { Checkpoint } from './checkpoint.js';
import { openCheckpoint } from './open-checkpoint.js';
import type { CheckpointPolicy, OpenedCheckpoint } from './open-checkpoint.js';
import { parseTlogProof } from './tlog-proof.js';
import { TlogError } from './tlog-error.js';

/** What a verified receipt establishes. */
export interface VerifiedTlogProof {
  index: number;
  checkpoint: Checkpoint;
  cosignedBy: string[];
  /** The proof's unauthenticated extra data, if any. */
  extra?: Buffer;
}

/**
 * Checkpoints already opened under one policy, by their note text (an `LruCache` fits): receipts
 * of one checkpoint then cost one signature check, not one each. One memo per policy.
 */
export interface CheckpointMemo {
  get(note: string): OpenedCheckpoint | undefined;
  set(note: string, opened: OpenedCheckpoint): void;
}

/** Verifies that `leafHash` is in the log per the proof `text`; throws a {@link TlogError}. */
export function verifyTlogProof(
  text: string,
  leafHash: Uint8Array,
  policy: CheckpointPolicy,
  memo?: CheckpointMemo,
): VerifiedTlogProof {
  const proof = parseTlogProof(text);
  let opened = memo?.get(proof.checkpoint);
  if (opened === undefined) {
    opened = openCheckpoint(proof.checkpoint, policy);
    memo?.set(proof.checkpoint, opened);
  }
  const { checkpoint, cosignedBy } = opened;
  if (!checkInclusion(proof.proof, checkpoint.size, checkpoint.root, proof.index, leafHash)) {
    throw new TlogError('proof_mismatch', `leaf ${proof.index} in tree ${checkpoint.size}`);
  }
  const out: VerifiedTlogProof = { index: proof.index, checkpoint, cosignedBy };
  if (proof.extra !== undefined) out.extra = proof.extra;
  return out;
}
