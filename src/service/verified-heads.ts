/**
 * Verified chain heads remembered across restarts. When a chain passes every check of SPEC.md §6
 * `logs_check_passed`, its head is stored with a seal: an HMAC-SHA256, under a key kept outside
 * the database (a file in the data directory), over the prescription id, the head hash, the
 * chain's signatures and the trusted roots. The first verify after a restart finds the seal and
 * skips the ES384 checks of check 3; checks 1, 2 and 4 (bodies, hashes, links, head) still run on
 * every event, so the sealed head still binds every body, and the seal binds every signature.
 * A row written by anyone without the key, a changed signature, head or trust store: the seal does
 * not match and the chain is verified in full. Every append writes the seal of the head it makes
 * (the chain below it having passed every check), so a decision never verifies a signature again.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { TrustStore } from '../pki/index.js';
import type { ChainState, Store, VerifiedHeadRow } from '../store/types.js';

/** Bytes of a seal key. */
export const SEAL_KEY_BYTES = 32;

/** What the seal of one chain is computed from. */
function sealOf(key: Buffer, trustId: string, state: ChainState): string {
  const signatures = createHash('sha256');
  for (const event of state.events) signatures.update(`${event.signature}\u0000`);
  return createHmac('sha256', key)
    .update('erx verified head v1\u0000')
    .update(`${trustId}\u0000${state.prescription.id}\u0000${state.prescription.headHash}\u0000`)
    .update(signatures.digest())
    .digest('hex');
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

  /** Whether the chain as read has a stored seal that matches it: its signatures were verified. */
  async vouchFor(state: ChainState): Promise<boolean> {
    const row = await this.#store.getVerifiedHead(state.prescription.id);
    if (row === undefined || row.headHash !== state.prescription.headHash) return false;
    const expected = Buffer.from(sealOf(this.#key, this.#trustId, state), 'hex');
    const stored = Buffer.from(row.seal, 'hex');
    return stored.length === expected.length && timingSafeEqual(stored, expected);
  }

  /** Seals the chain as read, which has just passed every check. */
  async remember(state: ChainState): Promise<void> {
    await this.#store.putVerifiedHead(this.sealFor(state));
  }

  /**
   * The seal of `state`, for the store to write with the append that makes it: a chain that passed
   * every check, with an event this process has just signed on top.
   */
  sealFor(state: ChainState): VerifiedHeadRow {
    return {
      prescriptionId: state.prescription.id,
      headHash: state.prescription.headHash,
      seal: sealOf(this.#key, this.#trustId, state),
    };
  }
}
