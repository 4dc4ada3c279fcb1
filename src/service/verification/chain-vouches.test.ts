/**
 * The log's admission of events another instance signed (or this one before a restart): the chain
 * as stored vouches for them when it holds them and passes its checks, a matching seal standing for
 * the signatures, so no ES384 check is made; a rewritten, re-signed or broken chain vouches for
 * nothing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { PHARMACIST, as, createSample, withService } from '../../../test/support/service.js';
import type { ServiceParts } from '../../../test/support/service.js';
import { EventVerifier } from '../../ledger/index.js';
import { VerificationMemory } from '../../memory/verification-memory.js';
import type { ChainState, EventRow } from '../../store/types.js';
import { TermsVerifier } from '../rules/terms.js';
import { SEAL_KEY_BYTES, VerifiedHeads } from './verified-heads.js';
import { chainVouches } from './check-chain.js';

/** What an instance that signed none of the events checks with. */
function otherInstance(parts: ServiceParts, sealKey = parts.sealKey) {
  const memory = new VerificationMemory();
  const verifier = new EventVerifier(parts.pki.trustStore, memory);
  const deps = {
    store: parts.store,
    verifier,
    verifiedHeads: new VerifiedHeads(parts.store, sealKey, parts.pki.trustStore),
    terms: new TermsVerifier(parts.linkKeys, memory.terms),
  };
  return { verifier, vouches: chainVouches(deps) };
}

async function chainOf(parts: ServiceParts, id: string): Promise<ChainState> {
  const state = (await parts.store.readChain(id, { remember: false }))?.state;
  assert.ok(state);
  return state;
}

describe('chainVouches', () => {
  test('a sealed chain vouches for each of its events without an ES384 check', () =>
    withService(async ({ parts, service }) => {
      const rx = await createSample(service);
      await service.lock(rx.id, 'counter', as(PHARMACIST));
      await service.unlock(rx.id, 'served', as(PHARMACIST));
      const { events } = await chainOf(parts, rx.id);
      const { verifier, vouches } = otherInstance(parts);
      for (const event of events) assert.equal(await vouches(event), true, `event ${event.seq}`);
      assert.equal(verifier.publicKeyOperations, 0);
    }));

  test('without a matching seal the chain is verified in full, then vouches', () =>
    withService(async ({ parts, service }) => {
      const rx = await createSample(service);
      await service.lock(rx.id, 'counter', as(PHARMACIST));
      const { events } = await chainOf(parts, rx.id);
      const { verifier, vouches } = otherInstance(parts, randomBytes(SEAL_KEY_BYTES));
      assert.equal(await vouches(events[1]!), true);
      assert.ok(verifier.publicKeyOperations > 0);
    }));

  test('an event the chain does not hold as given, or a broken chain, is vouched for by no one', () =>
    withService(async ({ parts, service }) => {
      const rx = await createSample(service);
      await service.lock(rx.id, 'counter', as(PHARMACIST));
      const state = await chainOf(parts, rx.id);
      const { vouches } = otherInstance(parts);
      const lock = state.events[1]!;
      const other = (change: Partial<EventRow>): EventRow => ({ ...lock, ...change });
      assert.equal(await vouches(other({ hash: 'a'.repeat(64) })), false, 'another hash');
      assert.equal(await vouches(other({ signature: `${lock.signature}x` })), false);
      assert.equal(await vouches(other({ seq: 2 })), false, 'a place the chain lacks');
      assert.equal(await vouches({ ...lock, prescriptionId: 'unknown' }), false);
    }));
});
