/**
 * Sealed verified heads: a chain verified before a restart is verified after it without an ES384
 * check, and only while its seal, made with the key outside the database, matches what is read.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  PHARMACIST,
  as,
  createSample,
  serviceOver,
  withServiceParts,
} from '../../test/support/service.js';
import type { ServiceParts } from '../../test/support/service.js';
import { SEAL_KEY_BYTES } from './verified-heads.js';
import type { VerifyFull } from './types.js';

/** A chain of four events, verified once by a service that is then dropped. */
async function verifiedChain(parts: ServiceParts): Promise<{ id: string; link: string }> {
  const { service } = serviceOver(parts);
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

async function verifyAfterRestart(parts: ServiceParts, link: string) {
  const { service, verifier } = serviceOver(parts);
  const answer = (await service.verify(link, PHARMACIST)).answer as VerifyFull;
  return { answer, esOperations: verifier.publicKeyOperations };
}

describe('verified heads', () => {
  test('a restart verifies a sealed chain without one ES384 check, with the same answer', () =>
    withServiceParts(async (parts) => {
      const rx = await verifiedChain(parts);
      const before = serviceOver(parts);
      const full = (await before.service.verify(rx.link, PHARMACIST)).answer;
      const after = await verifyAfterRestart(parts, rx.link);
      assert.equal(after.esOperations, 0);
      assert.deepEqual(after.answer, full);
    }));

  test('without a seal, or with one made under another key, the chain is verified in full', () =>
    withServiceParts(async (parts) => {
      const rx = await verifiedChain(parts);
      const head = await parts.store.getVerifiedHead(rx.id);
      assert.ok(head);
      // A seal written by someone without the key.
      await parts.store.putVerifiedHead({ ...head, seal: randomBytes(32).toString('hex') });
      const forged = await verifyAfterRestart(parts, rx.link);
      assert.ok(forged.esOperations >= 4, `${forged.esOperations} ES384 checks`);
      assert.equal(forged.answer.valid, true);
      // That full verification sealed the head again: the next restart is warm.
      assert.equal((await verifyAfterRestart(parts, rx.link)).esOperations, 0);
      // Another key (another data directory) does not vouch for this one's seals.
      const elsewhere = await verifyAfterRestart(
        { ...parts, sealKey: randomBytes(SEAL_KEY_BYTES) },
        rx.link,
      );
      assert.ok(elsewhere.esOperations >= 4);
    }));

  test('a signature changed after sealing is caught: the seal covers every signature', () =>
    withServiceParts(async (parts) => {
      const rx = await verifiedChain(parts);
      const other = await verifiedChain(parts);
      const events = await parts.store.getEvents(rx.id);
      const donor = (await parts.store.getEvents(other.id))[2]!;
      // Swap in another chain's (valid) signature for the third event, as a row edit would.
      const edited = events.map((e, i) => (i === 2 ? { ...e, signature: donor.signature } : e));
      const tampered = {
        ...parts,
        store: {
          ...parts.store,
          readChain: async (id: string) => {
            const read = await parts.store.readChain(id);
            return read && { state: { ...read.state, events: edited }, snapshot: undefined };
          },
          getVerifiedHead: (id: string) => parts.store.getVerifiedHead(id),
          putVerifiedHead: () => Promise.resolve(),
        },
      } as ServiceParts;
      const after = await verifyAfterRestart(tampered, rx.link);
      assert.equal(after.answer.valid, false);
      assert.equal(after.answer.tampering_detection_result.logs_check_passed, false);
    }));
});
