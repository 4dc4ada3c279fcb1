/**
 * `verifyChain` over chains as the store holds them: an untouched chain verifies, its outcome
 * depends on the chain alone, and an empty chain, a wrong head or a stored column that disagrees
 * with the signed body fails where it breaks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EventVerifier } from './event-verifier.js';
import { makeChain, memoryPki } from '../../test/support/ledger/chain.js';
import { verifyChain } from './verify-chain.js';
import { VerificationMemory } from '../memory/verification-memory.js';

describe('verifyChain', () => {
  test('an untouched chain of every event type verifies', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer);
    const result = await verifyChain(
      {
        prescriptionId: JSON.parse(events[0]?.body ?? '{}').reference,
        events,
        headHash: events[9]?.hash ?? '',
      },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.equal(result.ok, true);
    assert.equal(result.failedCheck, undefined);
    assert.deepEqual(
      result.bodies.map((body) => body.type),
      [
        'create',
        'lock',
        'partial_dispense',
        'cancel',
        'partial_dispense',
        'unlock',
        'full_dispense',
        'lock',
        'unlock',
        'revoke',
      ],
    );
  });

  test('the outcome is a function of the chain, the head, the prescription and the trust store', async () => {
    const pki = await memoryPki();
    const made = await makeChain(pki.signer, { length: 4 });
    const prescriptionId = JSON.parse(made[0]?.body ?? '{}').reference as string;
    const headHash = made[3]?.hash ?? '';
    const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    const first = await verifyChain({ prescriptionId, events: made, headHash }, verifier);
    assert.equal(first.ok, true);
    assert.deepEqual(
      await verifyChain({ prescriptionId, events: made, headHash }, verifier),
      first,
    );
    // Another head or prescription is another input: verified, and it fails.
    const otherHead = await verifyChain(
      { prescriptionId, events: made, headHash: made[2]?.hash ?? '' },
      verifier,
    );
    assert.deepEqual([otherHead.ok, otherHead.failedCheck], [false, 'head']);
    const otherId = await verifyChain({ prescriptionId: 'p', events: made, headHash }, verifier);
    assert.deepEqual([otherId.ok, otherId.failedCheck], [false, 'reference']);
    // Another verifier (another trust store) does not share what this one remembered.
    const elsewhere = new EventVerifier((await memoryPki()).trustStore, new VerificationMemory());
    const untrusted = await verifyChain({ prescriptionId, events: made, headHash }, elsewhere);
    assert.deepEqual([untrusted.ok, untrusted.failedCheck], [false, 'chain']);
  });

  test('an empty chain fails the link check at index 0', async () => {
    const pki = await memoryPki();
    const result = await verifyChain(
      { prescriptionId: 'p', events: [], headHash: 'a'.repeat(64) },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.deepEqual(
      [result.ok, result.firstBadIndex, result.failedCheck, result.reason],
      [false, 0, 'link', 'empty_chain'],
    );
  });

  test('a head that is not the last hash fails the head check at the last index', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length: 4 });
    const reference = JSON.parse(events[0]?.body ?? '{}').reference as string;
    const result = await verifyChain(
      { prescriptionId: reference, events, headHash: events[2]?.hash ?? '' },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.deepEqual([result.ok, result.firstBadIndex, result.failedCheck], [false, 3, 'head']);
  });
});

describe('columns kept beside the signed body', () => {
  test('a stored position or parent hash that disagrees with the body is a link failure', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length: 4 });
    const reference = JSON.parse(events[0]?.body ?? '{}').reference as string;
    const rows = events.map((e, seq) => ({
      ...e,
      seq,
      parentHash: (JSON.parse(e.body) as { parent_hash?: string }).parent_hash ?? null,
    }));
    const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    const check = (edited: typeof rows) =>
      verifyChain({ prescriptionId: reference, events: edited, headHash: rows[3]!.hash }, verifier);

    assert.equal((await check(rows)).ok, true);
    const seqEdited = rows.map((r, i) => (i === 2 ? { ...r, seq: 7 } : r));
    assert.deepEqual(
      [(await check(seqEdited)).firstBadIndex, (await check(seqEdited)).reason],
      [2, 'seq_mismatch'],
    );
    const parentEdited = rows.map((r, i) => (i === 1 ? { ...r, parentHash: 'f'.repeat(64) } : r));
    const result = await check(parentEdited);
    assert.deepEqual([result.firstBadIndex, result.reason], [1, 'parent_column_mismatch']);
  });
});
