import assert from 'node:assert/strict';
import type { webcrypto } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { x509 } from '../pki/index.js';
import { canonicalJson } from './canonical-json.js';
import type { LedgerRecord, SignedEvent } from './event.js';
import { EventVerifier } from './event-verifier.js';
import { sha256Hex } from './hash.js';
import { makeChain } from '../../test/support/ledger/chain.js';
import { flipBit, headerText, b64url, segmentBytes } from '../../test/support/ledger/jws.js';
import { signatureFixture } from '../../test/support/ledger/signature-fixture.js';
import type { SignatureFixture } from '../../test/support/ledger/signature-fixture.js';
import { verifyChain } from './verify-chain.js';
import { VerificationMemory } from '../memory/verification-memory.js';
import { DEFAULT_MEMORY_BOUNDS } from '../config/index.js';

let f: SignatureFixture;

before(async () => {
  f = await signatureFixture();
});

describe('memo of verified events', () => {
  let chain: SignedEvent[];
  let reference: string;

  before(async () => {
    chain = await makeChain(f.pki.signer);
    reference = (JSON.parse(chain[0]?.body ?? '{}') as { reference: string }).reference;
  });

  function input(events: readonly LedgerRecord[]) {
    return { prescriptionId: reference, events, headHash: events.at(-1)?.hash ?? '' };
  }

  test('a second verification of an untouched chain does no public-key work', async () => {
    const verifier = new EventVerifier(f.pki.trustStore, new VerificationMemory());
    assert.equal((await verifyChain(input(chain), verifier)).ok, true);
    const first = verifier.publicKeyOperations;
    assert.ok(first >= chain.length, `cold run did ${first} operations`);
    assert.equal((await verifyChain(input(chain), verifier)).ok, true);
    assert.equal(verifier.publicKeyOperations, first);
  });

  test('a tampered byte misses the memo, is re-checked and fails', async () => {
    const verifier = new EventVerifier(f.pki.trustStore, new VerificationMemory());
    await verifyChain(input(chain), verifier);
    const before = verifier.publicKeyOperations;
    const tampered = [...chain];
    tampered[5] = { ...chain[5]!, signature: flipBit(chain[5]!.signature, 2, 20, 0) };
    const result = await verifyChain(input(tampered), verifier);
    assert.deepEqual([result.ok, result.firstBadIndex, result.reason], [false, 5, 'jws_signature']);
    assert.equal(verifier.publicKeyOperations, before + 1);
    const body = JSON.parse(chain[7]!.body) as Record<string, unknown>;
    body.actor_name = 'Someone else';
    const text = canonicalJson(body);
    const rewritten = [...chain];
    rewritten[7] = { ...chain[7]!, body: text, hash: sha256Hex(text) };
    const second = await verifyChain(input(rewritten), verifier);
    assert.deepEqual(
      [second.ok, second.firstBadIndex, second.failedCheck],
      [false, 7, 'signature'],
    );
    assert.equal((await verifyChain(input(chain), verifier)).ok, true);
  });

  test('a remembered hash and signature value with another header or payload miss the memo', async () => {
    const verifier = new EventVerifier(f.pki.trustStore, new VerificationMemory());
    assert.equal((await verifyChain(input(chain), verifier)).ok, true);
    const [header, payload, value] = chain[3]!.signature.split('.') as [string, string, string];
    const x5c = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { x5c: string[] })
      .x5c;
    const swapped = Buffer.from(JSON.stringify({ alg: 'ES384', x5c: [...x5c].reverse() })).toString(
      'base64url',
    );
    const otherPayload = Buffer.from(chain[4]!.hash).toString('base64url');
    for (const signature of [
      `${swapped}.${payload}.${value}`,
      `${header}.${otherPayload}.${value}`,
    ]) {
      const edited = [...chain];
      edited[3] = { ...chain[3]!, signature };
      const result = await verifyChain(input(edited), verifier);
      assert.deepEqual([result.ok, result.firstBadIndex], [false, 3], signature.slice(-40));
    }
  });

  test('the memo belongs to one trust store', async () => {
    const trusted = new EventVerifier(f.pki.trustStore, new VerificationMemory());
    assert.equal((await verifyChain(input(chain), trusted)).ok, true);
    const other = new EventVerifier(
      f.pki.trustStore.without(f.pki.root.der),
      new VerificationMemory(),
    );
    const result = await verifyChain(input(chain), other);
    assert.deepEqual([result.ok, result.reason], [false, 'untrusted_root']);
  });

  test('the memo is bounded', async () => {
    const verifier = new EventVerifier(
      f.pki.trustStore,
      new VerificationMemory({ ...DEFAULT_MEMORY_BOUNDS, signatures: 3 }),
    );
    await verifyChain(input(chain), verifier);
    assert.equal(verifier.memoSize, 3);
    const before = verifier.publicKeyOperations;
    await verifyChain(input(chain), verifier);
    assert.ok(verifier.publicKeyOperations > before);
  });
});

describe('signature header', () => {
  test('is exactly {"alg":"ES384","x5c":[leaf, root]} with standard base64 DER', async () => {
    const key = await f.pki.signer.keyAt(f.eventAt);
    assert.equal(f.record.signature.split('.')[0], b64url(headerText(key.x5c)));
    const text = Buffer.from(segmentBytes(f.record.signature, 0)).toString('utf8');
    const parsed = JSON.parse(text) as { alg: string; x5c: string[] };
    assert.deepEqual(Object.keys(parsed), ['alg', 'x5c']);
    assert.equal(parsed.alg, 'ES384');
    assert.equal(parsed.x5c[1], f.rootB64);
    const leafCert = new x509.X509Certificate(Buffer.from(parsed.x5c[0] ?? '', 'base64'));
    assert.equal(leafCert.issuer, f.pki.root.certificate.subject);
    assert.equal(Buffer.from(segmentBytes(f.record.signature, 1)).toString('utf8'), f.record.hash);
    assert.equal(segmentBytes(f.record.signature, 2).length, 96);
    const curve = (leafCert.publicKey.algorithm as unknown as webcrypto.EcKeyAlgorithm).namedCurve;
    assert.equal(curve, 'P-384');
  });
});
