/**
 * Sealed verified heads: a chain verified before a restart is verified after it without an ES384
 * check, and only while its seal, made with the key outside the database, matches what is read.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { PHARMACIST, as, createSample, withService } from '../../../test/support/service.js';
import type { RestartChanges, ServiceUnderTest } from '../../../test/support/service.js';
import { SEAL_KEY_BYTES, trustStoreId } from './verified-heads.js';
import type { PrescriptionService } from '../prescription-service.js';
import type { VerifyFull } from '../types.js';

/** A chain of four events, verified once by `service`, which the test then drops. */
async function verifiedChain(service: PrescriptionService): Promise<{ id: string; link: string }> {
  const rx = await createSample(service);
  await service.lock(rx.id, 'counter', as(PHARMACIST));
  await service.dispense(
    rx.id,
    [{ id: '7680543201015', amount: 1 }],
    { force: false },
    as(PHARMACIST),
  );
  await service.unlock(rx.id, undefined, as(PHARMACIST));
  const first = (await service.verify(rx.link, PHARMACIST)).answer as VerifyFull;
  assert.equal(first.valid, true);
  return rx;
}

/** Verifies `link` after a restart of `s` (with `changed` parts, if given). */
async function verifyAfterRestart(s: ServiceUnderTest, link: string, changed: RestartChanges = {}) {
  const { service, verifier } = s.restart(changed);
  const answer = (await service.verify(link, PHARMACIST)).answer as VerifyFull;
  return { answer, esOperations: verifier.publicKeyOperations };
}

describe('verified heads', () => {
  test('a restart verifies a sealed chain without one ES384 check, with the same answer', () =>
    withService(async (s) => {
      const rx = await verifiedChain(s.service);
      const full = (await s.restart().service.verify(rx.link, PHARMACIST)).answer;
      const after = await verifyAfterRestart(s, rx.link);
      assert.equal(after.esOperations, 0);
      assert.deepEqual(after.answer, full);
    }));

  test('without a seal, or with one made under another key, the chain is verified in full', () =>
    withService(async (s) => {
      const { parts } = s;
      const rx = await verifiedChain(s.service);
      const head = await parts.store.verifiedHeads.get(rx.id);
      assert.ok(head);
      // A seal written by someone without the key.
      await parts.store.verifiedHeads.put({ ...head, seal: randomBytes(32).toString('hex') });
      const forged = await verifyAfterRestart(s, rx.link);
      assert.ok(forged.esOperations >= 4, `${forged.esOperations} ES384 checks`);
      assert.equal(forged.answer.valid, true);
      // That full verification sealed the head again: the next restart is warm.
      assert.equal((await verifyAfterRestart(s, rx.link)).esOperations, 0);
      // Another key (another data directory) does not vouch for this one's seals.
      const elsewhere = await verifyAfterRestart(s, rx.link, {
        sealKey: randomBytes(SEAL_KEY_BYTES),
      });
      assert.ok(elsewhere.esOperations >= 4);
    }));

  test('a signature changed after sealing is caught: the seal covers every signature', () =>
    withService(async (s) => {
      const { parts } = s;
      const rx = await verifiedChain(s.service);
      const other = await verifiedChain(s.service);
      const events = (await parts.store.readChain(rx.id))?.state.events ?? [];
      const donor = ((await parts.store.readChain(other.id))?.state.events ?? [])[2]!;
      // Swap in another chain's (valid) signature for the third event, as a row edit would.
      const edited = events.map((e, i) => (i === 2 ? { ...e, signature: donor.signature } : e));
      const after = await verifyAfterRestart(s, rx.link, {
        store: {
          readChain: async (id, options) => {
            const read = await parts.store.readChain(id, options);
            return read && { ...read, state: { ...read.state, events: edited } };
          },
          verifiedHeads: {
            get: (id) => parts.store.verifiedHeads.get(id),
            put: () => Promise.resolve(),
          },
        },
      });
      assert.equal(after.answer.valid, false);
      assert.equal(after.answer.tampering_detection_result.logs_check_passed, false);
    }));

  test('a seal of the release before (tag v1) still vouches for the signatures after an upgrade', () =>
    withService(async (s) => {
      const { parts } = s;
      const rx = await verifiedChain(s.service);
      const { prescription, events } = (await parts.store.readChain(rx.id))!.state;
      // Written as that release wrote it: over the roots, the id, the head and the signatures.
      const signatures = createHash('sha256');
      for (const event of events) signatures.update(`${event.signature}\u0000`);
      const trustId = trustStoreId(parts.pki.trustStore);
      const previous = createHmac('sha256', parts.sealKey)
        .update('erx verified head v1\u0000')
        .update(`${trustId}\u0000${prescription.id}\u0000${prescription.headHash}\u0000`)
        .update(signatures.digest())
        .digest('hex');
      const head = { prescriptionId: rx.id, headHash: prescription.headHash, seal: previous };
      await parts.store.verifiedHeads.put(head);
      const upgraded = await verifyAfterRestart(s, rx.link);
      assert.equal(upgraded.esOperations, 0);
      assert.equal(upgraded.answer.valid, true);
      // Under another key it vouches for nothing.
      await parts.store.verifiedHeads.put(head);
      const elsewhere = await verifyAfterRestart(s, rx.link, {
        sealKey: randomBytes(SEAL_KEY_BYTES),
      });
      assert.ok(elsewhere.esOperations >= 4, `${elsewhere.esOperations} ES384 checks`);
    }));
});
