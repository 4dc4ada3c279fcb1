/**
 * Verified chain heads remembered across restarts. When a chain passes every check of SPEC.md §6
 * `logs_check_passed`, its head is stored with a seal: an HMAC-SHA256, under a key kept outside
 * the database (a file in the data directory), over the prescription id, the head hash, the
 * chain's signatures and the trusted roots, and over the row's terms (their signature and the
 * copies it signs) when those verified too. The first verify after a restart finds the seal and
 * skips the ES384 checks of check 3 and the terms' Ed25519 check; checks 1, 2 and 4 (bodies,
 * hashes, links, head) still run on every event, so the sealed head still binds every body, and
 * the seal binds every signature and the terms. A row written by anyone without the key, a changed
 * signature, head, terms copy or trust store: the seal does not match and what it covered is
 * verified again. Every append writes the seal of the head it makes (the chain below it and its
 * terms having passed every check), so a decision never verifies a signature again.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { TrustStore } from '../../pki/index.js';
import type { ChainState, Store, VerifiedHeadRow } from '../../store/types.js';
import { termsName } from '../rules/terms.js';

/** Bytes of a seal key. */
export const SEAL_KEY_BYTES = 32;

/**
 * What a stored seal vouches for of the chain as read: nothing (no seal, or one that does not
 * match), its signatures, or its signatures and its terms.
 */
export type Vouched = 'nothing' | 'signatures' | 'signatures_and_terms';

/** SHA-256 over the chain's signatures, in order. */
function signaturesDigest(state: ChainState): Buffer {
  const signatures = createHash('sha256');
  for (const event of state.events) signatures.update(`${event.signature}\u0000`);
  return signatures.digest();
}

/** The seal of one chain; over its terms too when `withTerms` and the row has terms. */
function sealOf(key: Buffer, trustId: string, state: ChainState, withTerms: boolean): Buffer {
  const { prescription } = state;
  const terms = withTerms ? prescription.terms : undefined;
  return createHmac('sha256', key)
    .update('erx verified head v2\u0000')
    .update(`${trustId}\u0000${prescription.id}\u0000${prescription.headHash}\u0000`)
    .update(signaturesDigest(state))
    .update(terms === undefined ? '\u0000' : `t${termsName(prescription, terms)}`)
    .digest();
}

/**
 * The seal the release before terms were sealed wrote (tag `v1`): over the id, the head, the
 * signatures and the trusted roots. It still vouches for the signatures, so after an upgrade the
 * first check of each chain skips its ES384 checks as before (its terms are checked).
 */
function previousSealOf(key: Buffer, trustId: string, state: ChainState): Buffer {
  return createHmac('sha256', key)
    .update('erx verified head v1\u0000')
    .update(`${trustId}\u0000${state.prescription.id}\u0000${state.prescription.headHash}\u0000`)
    .update(signaturesDigest(state))
    .digest();
}

/** A name for the trusted roots: a seal made under other roots does not match. */
export function trustStoreId(trustStore: TrustStore): string {
  const digest = createHash('sha256');
  for (const root of trustStore.roots)
    digest.update(createHash('sha256').update(root.der).digest());
  return digest.digest('hex');
}

/** The sealed verified heads of one store, under one key and one trust store. */
export class VerifiedHeads {
  readonly #store: Store;
  readonly #key: Buffer;
  readonly #trustId: string;

  constructor(store: Store, key: Buffer, trustStore: TrustStore) {
    if (key.length !== SEAL_KEY_BYTES)
      throw new RangeError(`a seal key is ${SEAL_KEY_BYTES} bytes`);
    this.#store = store;
    this.#key = key;
    this.#trustId = trustStoreId(trustStore);
  }

  /** What the stored seal of the chain as read vouches for ({@link Vouched}). */
  async vouchFor(state: ChainState): Promise<Vouched> {
    const row = await this.#store.verifiedHeads.get(state.prescription.id);
    if (row === undefined || row.headHash !== state.prescription.headHash) return 'nothing';
    const stored = Buffer.from(row.seal, 'hex');
    const matches = (expected: Buffer): boolean =>
      stored.length === expected.length && timingSafeEqual(stored, expected);
    const seal = (withTerms: boolean): Buffer => sealOf(this.#key, this.#trustId, state, withTerms);
    if (state.prescription.terms !== undefined && matches(seal(true))) {
      return 'signatures_and_terms';
    }
    if (matches(seal(false))) return 'signatures';
    return matches(previousSealOf(this.#key, this.#trustId, state)) ? 'signatures' : 'nothing';
  }

  /** Seals the chain as read, which has just passed every check; its terms too if `termsHeld`. */
  async remember(state: ChainState, termsHeld: boolean): Promise<void> {
    await this.#store.verifiedHeads.put(this.sealFor(state, termsHeld));
  }

  /**
   * The seal of `state`, for the store to write with the append that makes it: a chain that passed
   * every check, with an event this process has just signed on top; over its terms too when
   * `termsHeld` (they verified, or this process signed them).
   */
  sealFor(state: ChainState, termsHeld: boolean): VerifiedHeadRow {
    return {
      prescriptionId: state.prescription.id,
      headHash: state.prescription.headHash,
      seal: sealOf(this.#key, this.#trustId, state, termsHeld).toString('hex'),
    };
  }
}
