/**
 * The chain check is pure: it reads a seal but never writes one; sealing a chain verified in full
 * is its own step (`sealVerified`), which verify and the list take and a decision does not. A seal
 * written over the terms stands for their signature after a restart; edited copies do not match it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PHARMACIST, as, createSample, withService } from '../../../test/support/service.js';
import type { ServiceParts } from '../../../test/support/service.js';
import { EventVerifier } from '../../ledger/index.js';
import type { LinkVerificationKeys } from '../../link/index.js';
import { VerificationMemory } from '../../memory/verification-memory.js';
import type { ChainState, Store, VerifiedHeadRow } from '../../store/types.js';
import { TermsVerifier, readTerms } from '../rules/terms.js';
import { checkChain, sealVerified } from './check-chain.js';
import { VerifiedHeads } from './verified-heads.js';

/** What a restarted instance checks with: an empty memory, link keys that count their use. */
function restarted(parts: ServiceParts, store: Store) {
  const memory = new VerificationMemory();
  const keyUses = { count: 0 };
  const keys: LinkVerificationKeys = {
    keysCurrentAt: (at) => {
      keyUses.count++;
      return parts.linkKeys.keysCurrentAt(at);
    },
  };
  return {
    keyUses,
    deps: {
      verifier: new EventVerifier(parts.pki.trustStore, memory),
      verifiedHeads: new VerifiedHeads(store, parts.sealKey, parts.pki.trustStore),
      terms: new TermsVerifier(keys, memory.terms),
    },
  };
}

/** A store holding at most one seal, counting the seals written to it. */
function sealStore(): { store: Store; written: VerifiedHeadRow[] } {
  const written: VerifiedHeadRow[] = [];
  const store = {
    verifiedHeads: {
      get: async () => written.at(-1),
      put: async (row: VerifiedHeadRow) => {
        written.push(row);
      },
    },
  } as unknown as Store;
  return { store, written };
}

async function lockedSample(parts: ServiceParts, service: Parameters<typeof createSample>[0]) {
  const rx = await createSample(service);
  await service.lock(rx.id, 'counter', as(PHARMACIST));
  const state = (await parts.store.readChain(rx.id))?.state;
  assert.ok(state);
  return state;
}

function termsOf(deps: ReturnType<typeof restarted>['deps'], state: ChainState, body: unknown) {
  return readTerms(state.prescription, body as never, deps.terms, 365 * 24 * 3600 * 1000);
}

describe('checkChain', () => {
  for (const checkFor of ['decision', 'verify'] as const) {
    test(`checking for a ${checkFor} writes no seal; sealVerified writes the one seal`, () =>
      withService(async ({ parts, service }) => {
        const state = await lockedSample(parts, service);
        const { store, written } = sealStore();
        const { deps } = restarted(parts, store);
        const checked = await checkChain(deps, state, checkFor);
        assert.equal(checked.chain.ok, true);
        assert.equal(checked.verifiedInFull, true);
        assert.equal(written.length, 0);
        await sealVerified(deps, state, checked, true);
        assert.equal(written.length, 1);
      }));
  }

  test('a seal over the terms stands for their signature after a restart', () =>
    withService(async ({ parts, service }) => {
      const state = await lockedSample(parts, service);
      const { store } = sealStore();
      const first = restarted(parts, store);
      const checked = await checkChain(first.deps, state, 'verify');
      await sealVerified(first.deps, state, checked, true);

      const after = restarted(parts, store);
      const again = await checkChain(after.deps, state, 'verify');
      assert.equal(again.chain.ok, true);
      assert.equal(again.verifiedInFull, false, 'the seal stood for the signatures');
      assert.equal(typeof termsOf(after.deps, state, again.chain.bodies[0]), 'object');
      assert.equal(after.keyUses.count, 0, 'no terms signature was checked');
    }));

  test('a seal without the terms, or over other copies, leaves the terms to be checked', () =>
    withService(async ({ parts, service }) => {
      const state = await lockedSample(parts, service);
      const { store } = sealStore();
      const first = restarted(parts, store);
      await sealVerified(first.deps, state, await checkChain(first.deps, state, 'verify'), false);
      const after = restarted(parts, store);
      const again = await checkChain(after.deps, state, 'verify');
      assert.equal(again.verifiedInFull, false, 'the seal stood for the signatures');
      assert.equal(typeof termsOf(after.deps, state, again.chain.bodies[0]), 'object');
      assert.equal(after.keyUses.count, 1, 'the terms signature was checked');

      // Sealed with its terms, then a copy edited: the seal no longer covers the terms.
      const { store: sealed } = sealStore();
      const owner = restarted(parts, sealed);
      await sealVerified(owner.deps, state, await checkChain(owner.deps, state, 'verify'), true);
      const [medicament, ...rest] = state.prescription.medicaments;
      assert.ok(medicament);
      const edited: ChainState = {
        ...state,
        prescription: {
          ...state.prescription,
          medicaments: [{ ...medicament, NbPack: (medicament.NbPack ?? 1) + 5 }, ...rest],
        },
      };
      const later = restarted(parts, sealed);
      const checkedEdited = await checkChain(later.deps, edited, 'verify');
      // The seal no longer matches at all: the signatures are verified again, and hold.
      assert.equal(checkedEdited.chain.ok, true);
      assert.equal(checkedEdited.verifiedInFull, true);
      assert.equal(termsOf(later.deps, edited, checkedEdited.chain.bodies[0]), 'terms_signature');
      assert.equal(later.keyUses.count, 1);
    }));
});
