/**
 * `verifyChain` across the signing leaves: a chain signed by successive leaves verifies (and
 * fails without their root), a reopened signer keeps its leaves, and a chain signed once, stored
 * as a vector, verifies forever.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LeafSigner, MemoryPkiStorage, TrustStore } from '../pki/index.js';
import type { LedgerRecord } from './event.js';
import { EventVerifier } from './event-verifier.js';
import { makeChain, memoryPki } from '../../test/support/ledger/chain.js';
import { loadVectors } from '../../test/support/ledger/vectors.js';
import { verifyChain } from './verify-chain.js';
import { VerificationMemory } from '../memory/verification-memory.js';

const HOUR = 60 * 60 * 1000;

describe('leaves rotate', () => {
  test('a chain signed by three successive leaves verifies, and fails without the root', async () => {
    const pki = await memoryPki({ leafLifetimeMs: HOUR });
    const start = new Date(Date.now() - 5 * HOUR);
    const events = await makeChain(pki.signer, { length: 3, start, stepMinutes: 90 });
    const leaves = new Set(
      events.map(
        (e) =>
          JSON.parse(Buffer.from(e.signature.split('.')[0] ?? '', 'base64url').toString()).x5c[0],
      ),
    );
    assert.equal(leaves.size, 3);
    // Each rotation retired the leaf before it, whose window had passed: only the last is held.
    assert.equal(pki.signer.leafCount, 1);
    const input = {
      prescriptionId: JSON.parse(events[0]?.body ?? '{}').reference as string,
      events,
      headHash: events[2]?.hash ?? '',
    };
    assert.equal(
      (await verifyChain(input, new EventVerifier(pki.trustStore, new VerificationMemory()))).ok,
      true,
    );
    const withoutRoot = pki.trustStore.without(pki.root.der);
    const result = await verifyChain(
      input,
      new EventVerifier(withoutRoot, new VerificationMemory()),
    );
    assert.deepEqual(
      [result.ok, result.firstBadIndex, result.failedCheck, result.reason],
      [false, 0, 'chain', 'untrusted_root'],
    );
  });

  test('a reopened signer finds the stored leaves and keeps using the current one', async () => {
    const storage = new MemoryPkiStorage();
    const pki = await memoryPki();
    const first = await LeafSigner.open({ storage, root: pki.root, leafLifetimeMs: HOUR });
    const now = new Date();
    const key = await first.keyAt(now);
    await first.keyAt(new Date(now.getTime() + 2 * HOUR));
    const reopened = await LeafSigner.open({ storage, root: pki.root, leafLifetimeMs: HOUR });
    assert.equal(reopened.leafCount, 2);
    assert.deepEqual((await reopened.keyAt(now)).x5c, key.x5c);
    assert.equal(reopened.leafCount, 2);
  });
});

describe('a chain signed once verifies forever (stored vector)', () => {
  const vectors = loadVectors<
    { prescriptionId: string; trustedRoots: string[]; events: LedgerRecord[]; headHash: string },
    { ok: boolean; leaves: number }
  >('signed-chain.json');
  for (const vector of vectors) {
    test(vector.description ?? vector.source, async () => {
      const roots = vector.input.trustedRoots.map(
        (b64) => new Uint8Array(Buffer.from(b64, 'base64')),
      );
      const trust = await TrustStore.fromCertificates(roots);
      const verifier = new EventVerifier(trust, new VerificationMemory());
      const result = await verifyChain(vector.input, verifier);
      assert.equal(result.ok, vector.expected.ok);
      // One JWS per event plus one certificate check per distinct leaf.
      assert.equal(
        verifier.publicKeyOperations,
        vector.input.events.length + vector.expected.leaves,
      );
      const untrusted = await verifyChain(
        vector.input,
        new EventVerifier(await TrustStore.fromCertificates([]), new VerificationMemory()),
      );
      assert.deepEqual([untrusted.ok, untrusted.reason], [false, 'untrusted_root']);
    });
  }
});
