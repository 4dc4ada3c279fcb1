/**
 * Check 3 of SPEC.md §6 `logs_check_passed`: each event's JWS verifies under its x5c leaf, with
 * the algorithm pinned to ES384, and the leaf chains to a pinned root and was valid at the
 * event's time. Successes are memoised by the exact body bytes and signature (SPEC.md §7), so
 * re-verifying an untouched chain costs no public-key work; changed bytes miss the memo.
 */
import { hash } from 'node:crypto';
import { leafValidAt, validateLeaf } from '../pki/index.js';
import type { LeafValidation, PinnedRoot, TrustStore } from '../pki/index.js';
import type { CheckFailure } from './chain-failure.js';
import type { EventBody, LedgerRecord } from './event.js';
import { inspectJws, jwsSignatureHolds } from './inspect-jws.js';
import type { LruCache } from '../lru-cache.js';
import { parseTimestamp } from './timestamp.js';

/**
 * What the verifier remembers, owned by the verification memory (`src/memory`): events verified
 * (by body and signature) and leaf validations (by root and leaf bytes).
 */
export interface EventVerifierMemo {
  readonly signatures: LruCache<true>;
  readonly leaves: LruCache<Promise<LeafValidation>>;
}

/**
 * The memo's key of an event. NUL never occurs in canonical JSON or a JWS, so the pair is encoded
 * unambiguously. The key is the raw digest as a one-byte string ('binary' is latin1): 32
 * characters, base64 takes 44.
 */
function memoKeyOf(record: LedgerRecord): string {
  return hash('sha256', `${record.body}\u0000${record.signature}`, 'binary');
}

/** Verifies event signatures against one trust store; the memo belongs to that store only. */
export class EventVerifier {
  readonly trustStore: TrustStore;
  private readonly memo: LruCache<true>;
  private readonly leaves: LruCache<Promise<LeafValidation>>;
  private operations = 0;

  /** A verifier for `trustStore`; `memo` belongs to that trust store only. */
  constructor(trustStore: TrustStore, memo: EventVerifierMemo) {
    this.trustStore = trustStore;
    this.memo = memo.signatures;
    this.leaves = memo.leaves;
  }

  /** Public-key operations performed so far (leaf certificate and JWS signature checks). */
  get publicKeyOperations(): number {
    return this.operations;
  }

  /** Entries in the memo of verified events. */
  get memoSize(): number {
    return this.memo.size;
  }

  /**
   * Remembers `record` as verified without checking it: only for an event this process has just
   * signed with a leaf certified by a root of this trust store.
   */
  vouch(record: LedgerRecord): void {
    this.memo.set(memoKeyOf(record), true);
  }

  /** Whether `record`, exactly as it is, has been verified (or vouched for) and is remembered. */
  knows(record: LedgerRecord): boolean {
    return this.memo.get(memoKeyOf(record)) === true;
  }

  /** Verifies the signature of `record`, whose `body` has already passed checks 1 and 2. */
  async verify(record: LedgerRecord, body: EventBody): Promise<CheckFailure | undefined> {
    const memoKey = memoKeyOf(record);
    if (this.memo.get(memoKey) === true) return undefined;
    const failure = await this.verifyUncached(record, body);
    if (failure === undefined) this.memo.set(memoKey, true);
    return failure;
  }

  private async verifyUncached(
    record: LedgerRecord,
    body: EventBody,
  ): Promise<CheckFailure | undefined> {
    const form = inspectJws(record.signature, record.hash);
    if (!form.ok) return { check: form.check, reason: form.reason };
    const root = this.trustStore.find(form.x5c.root);
    if (root === undefined) return { check: 'chain', reason: 'untrusted_root' };
    const leaf = await this.leaf(form.leafBase64, form.x5c.leaf, root);
    if (!leaf.ok) return { check: 'chain', reason: leaf.reason };
    const expired = leafValidAt(leaf.leaf, parseTimestamp(body.timestamp).epochNanos);
    if (expired !== undefined) return { check: 'chain', reason: expired };
    this.operations++;
    // The key is always the x5c leaf; the form (ES384, no other header member) was checked above.
    if (!jwsSignatureHolds(record.signature, leaf.leaf.publicKey)) {
      return { check: 'signature', reason: 'jws_signature' };
    }
    return undefined;
  }

  /** Validates a leaf once per (leaf bytes, root); results do not depend on time. */
  private leaf(leafBase64: string, der: Uint8Array, root: PinnedRoot): Promise<LeafValidation> {
    const key = `${this.trustStore.roots.indexOf(root)}:${leafBase64}`;
    const cached = this.leaves.get(key);
    if (cached !== undefined) return cached;
    this.operations++;
    const validation = validateLeaf(der, root);
    this.leaves.set(key, validation);
    return validation;
  }
}
