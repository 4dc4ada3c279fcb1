/**
 * The tampering detection result of verify (SPEC.md §6) combines the link flag, the hash of the
 * prescription and the chain's outcome.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EventVerifier } from './event-verifier.js';
import { makeChain, memoryPki } from '../../test/support/ledger/chain.js';
import { tamperDetectionResult } from './tamper-detection.js';
import { verifyChain } from './verify-chain.js';
import { VerificationMemory } from '../memory/verification-memory.js';

describe('tamperDetectionResult (SPEC.md §6)', () => {
  test('combines the link flag, the prescription hash and the chain', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length: 2 });
    const input = {
      prescriptionId: JSON.parse(events[0]?.body ?? '{}').reference as string,
      events,
      headHash: events[1]?.hash ?? '',
    };
    const chain = await verifyChain(
      input,
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.deepEqual(
      tamperDetectionResult({ prescriptionUrlValid: true, chmed: 'CHMED16A1test', chain }),
      {
        prescription_url_valid: true,
        prescription_hash_check_passed: true,
        logs_check_passed: true,
      },
    );
    assert.deepEqual(
      tamperDetectionResult({ prescriptionUrlValid: false, chmed: 'CHMED16A1other', chain }),
      {
        prescription_url_valid: false,
        prescription_hash_check_passed: false,
        logs_check_passed: true,
      },
    );
    const broken = await verifyChain(
      { ...input, headHash: 'f'.repeat(64) },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.equal(
      tamperDetectionResult({ prescriptionUrlValid: true, chmed: 'CHMED16A1test', chain: broken })
        .logs_check_passed,
      false,
    );
  });
});
