/**
 * Negative signature vectors, certificate level: the x5c chain must lead
 * to the pinned root byte for byte, through a leaf that may sign and was valid at the event.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { x509 } from '../pki/index.js';
import { makeCertificate, x5cEntry } from '../../test/support/ledger/certificates.js';
import { memoryPki } from '../../test/support/ledger/chain.js';
import { headerText, signCompact } from '../../test/support/ledger/jws.js';
import { ES384, HOUR, signatureFixture } from '../../test/support/ledger/signature-fixture.js';
import type { SignatureFixture } from '../../test/support/ledger/signature-fixture.js';

let f: SignatureFixture;

before(async () => {
  f = await signatureFixture();
});

function shifted(hours: number): Date {
  return new Date(f.eventAt.getTime() + hours * HOUR);
}

async function foreignKey() {
  return (await memoryPki()).signer.keyAt(f.eventAt);
}

const { digitalSignature, keyCertSign, keyAgreement } = x509.KeyUsageFlags;

const vectors: Array<[string, () => Promise<string>, string]> = [
  [
    'ES384 claimed over a P-256 leaf',
    async () => f.signedBy(await f.leaf({ curve: 'P-256' })),
    'leaf_key_type',
  ],
  [
    'a self-made chain (own root, own leaf)',
    async () => {
      const validity = { notBefore: shifted(-1), notAfter: shifted(1) };
      const root = await makeCertificate({
        subject: 'CN=evil',
        ca: true,
        keyUsage: keyCertSign,
        ...validity,
      });
      const cert = await f.leaf({ issuer: root });
      return f.signedBy(cert, [x5cEntry(cert), x5cEntry(root)]);
    },
    'untrusted_root',
  ],
  [
    'a chain to a foreign root (another installation)',
    async () => {
      const key = await foreignKey();
      return signCompact(headerText(key.x5c), f.record.hash, key.privateKey, ES384);
    },
    'untrusted_root',
  ],
  [
    'a foreign leaf presented with our root',
    async () => {
      const key = await foreignKey();
      const header = headerText([key.x5c[0], f.rootB64]);
      return signCompact(header, f.record.hash, key.privateKey, ES384);
    },
    'leaf_not_issued_by_root',
  ],
  [
    'an expired leaf',
    async () => f.signedBy(await f.leaf({ notBefore: shifted(-2), notAfter: shifted(-1) })),
    'leaf_expired',
  ],
  [
    'a not-yet-valid leaf',
    async () => f.signedBy(await f.leaf({ notBefore: shifted(1), notAfter: shifted(2) })),
    'leaf_not_yet_valid',
  ],
  [
    'a leaf without digitalSignature',
    async () => f.signedBy(await f.leaf({ keyUsage: keyAgreement })),
    'leaf_key_usage',
  ],
  [
    'a leaf without key usage',
    async () => f.signedBy(await f.leaf({ keyUsage: null })),
    'leaf_key_usage',
  ],
  [
    'a CA certificate as leaf',
    async () => f.signedBy(await f.leaf({ ca: true, keyUsage: digitalSignature | keyCertSign })),
    'leaf_is_ca',
  ],
  [
    'a leaf issued by another leaf, sent with that leaf',
    async () => {
      const parent = await f.leaf();
      const child = await f.leaf({ issuer: parent });
      return f.signedBy(child, [x5cEntry(child), x5cEntry(parent)]);
    },
    'untrusted_root',
  ],
  [
    'a leaf issued by another leaf named like the root, sent with the root',
    async () => {
      const parent = await f.leaf({ subject: f.pki.root.certificate.subject });
      return f.signedBy(await f.leaf({ issuer: parent }));
    },
    'leaf_not_issued_by_root',
  ],
  [
    'a leaf with an unknown critical extension',
    async () => f.signedBy(await f.leaf({ unknownCriticalExtension: true })),
    'leaf_critical_extension',
  ],
  [
    'a leaf certified with ecdsa-with-SHA256',
    async () => f.signedBy(await f.leaf({ signatureHash: 'SHA-256' })),
    'leaf_signature_algorithm',
  ],
  [
    'x5c with the leaf only',
    async () => {
      const c = await f.leaf();
      return f.signedBy(c, [x5cEntry(c)]);
    },
    'x5c_format',
  ],
  [
    'x5c with three certificates',
    async () => {
      const c = await f.leaf();
      return f.signedBy(c, [x5cEntry(c), f.rootB64, f.rootB64]);
    },
    'x5c_format',
  ],
  [
    'x5c in base64url instead of base64',
    async () => {
      const c = await f.leaf();
      return f.signedBy(c, [
        Buffer.from(c.der).toString('base64url'),
        f.rootB64.replace(/=+$/, ''),
      ]);
    },
    'x5c_format',
  ],
  [
    'x5c root with a trailing byte',
    async () => {
      const c = await f.leaf();
      const root = Buffer.concat([Buffer.from(f.pki.root.der), Buffer.from([0])]);
      return f.signedBy(c, [x5cEntry(c), root.toString('base64')]);
    },
    'untrusted_root',
  ],
];

describe('negative signature vectors, certificate level: none is accepted', () => {
  test('a correct leaf of the root verifies (control)', async () => {
    assert.equal((await f.verifyWith(await f.signedBy(await f.leaf()))).ok, true);
  });

  for (const [name, build, reason] of vectors) {
    test(name, async () => {
      const result = await f.verifyWith(await build());
      assert.equal(result.ok, false);
      assert.equal(result.firstBadIndex, 0);
      assert.equal(result.failedCheck, 'chain');
      assert.equal(result.reason, reason);
    });
  }
});
