import assert from 'node:assert/strict';
import { KeyObject } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { credentialFromPem, credentialToPem } from './credential.js';
import { MemoryPkiStorage } from './memory-storage.js';
import { openPki } from './open-pki.js';
import { createRootCa } from './root-ca.js';
import { issueLeaf } from './issue-leaf.js';
import { x509 } from './x509.js';

let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'erx-root-'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function files(name: string, cert: string, key: string): Promise<[string, string]> {
  const certPath = join(dir, `${name}-cert.pem`);
  const keyPath = join(dir, `${name}-key.pem`);
  await writeFile(certPath, cert);
  await writeFile(keyPath, key);
  return [certPath, keyPath];
}

describe('openPki with an operator-given root', () => {
  test('PKCS#8 and SEC1 keys are accepted; the root is pinned and signs leaves', async () => {
    const root = await createRootCa();
    const pem = credentialToPem(root);
    const sec1 = KeyObject.from(root.privateKey).export({ type: 'sec1', format: 'pem' }).toString();
    for (const key of [pem.privateKeyPem, sec1]) {
      const [certPath, keyPath] = await files('op', pem.certificatePem, key);
      const storage = new MemoryPkiStorage();
      const pki = await openPki({
        storage,
        rootCertificatePath: certPath,
        rootPrivateKeyPath: keyPath,
      });
      assert.deepEqual(pki.root.der, root.der);
      assert.equal(await storage.loadRoot(), undefined, 'an operator root is not copied');
      assert.equal(pki.trustStore.roots.length, 1);
      const signing = await pki.signer.keyAt(new Date());
      assert.equal(signing.x5c[1], Buffer.from(root.der).toString('base64'));
    }
  });

  test('a key that does not belong to the certificate is refused', async () => {
    const [a, b] = [credentialToPem(await createRootCa()), credentialToPem(await createRootCa())];
    const [certPath, keyPath] = await files('mismatch', a.certificatePem, b.privateKeyPem);
    await assert.rejects(
      openPki({
        storage: new MemoryPkiStorage(),
        rootCertificatePath: certPath,
        rootPrivateKeyPath: keyPath,
      }),
      { reason: 'key_mismatch' },
    );
  });

  test('a leaf (not a CA) is refused as root', async () => {
    const leaf = credentialToPem(await issueLeaf(await createRootCa(), { at: new Date() }));
    const [certPath, keyPath] = await files('leaf', leaf.certificatePem, leaf.privateKeyPem);
    await assert.rejects(
      openPki({
        storage: new MemoryPkiStorage(),
        rootCertificatePath: certPath,
        rootPrivateKeyPath: keyPath,
      }),
      { reason: 'not_a_ca' },
    );
  });

  test('a P-256 key is refused', async () => {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ]);
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=p256',
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
    });
    const key = KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString();
    const [certPath, keyPath] = await files('p256', cert.toString('pem'), key);
    await assert.rejects(
      openPki({
        storage: new MemoryPkiStorage(),
        rootCertificatePath: certPath,
        rootPrivateKeyPath: keyPath,
      }),
      { reason: 'not_p384' },
    );
  });

  test('only one of the two paths is refused', async () => {
    await assert.rejects(
      openPki({ storage: new MemoryPkiStorage(), rootCertificatePath: join(dir, 'x') }),
      { reason: 'incomplete_root' },
    );
  });

  test('garbage PEM is refused with a reason', async () => {
    await assert.rejects(credentialFromPem({ certificatePem: 'nope', privateKeyPem: 'nope' }), {
      reason: 'bad_certificate',
    });
    const pem = credentialToPem(await createRootCa());
    await assert.rejects(
      credentialFromPem({ certificatePem: pem.certificatePem, privateKeyPem: 'nope' }),
      { reason: 'bad_private_key' },
    );
  });
});

describe('certificates', () => {
  test('the root is a P-384 CA for 20 years; leaves sign only, for 24 h, issued by it', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const root = await createRootCa({ now });
    const rootCert = root.certificate;
    assert.equal(rootCert.subject, rootCert.issuer);
    assert.equal(rootCert.notAfter.getUTCFullYear(), 2050);
    assert.equal(rootCert.getExtension(x509.BasicConstraintsExtension)?.ca, true);
    const leaf = (await issueLeaf(root, { at: now })).certificate;
    assert.equal(leaf.issuer, rootCert.subject);
    assert.equal(
      leaf.getExtension(x509.KeyUsagesExtension)?.usages,
      x509.KeyUsageFlags.digitalSignature,
    );
    assert.equal(leaf.getExtension(x509.BasicConstraintsExtension)?.ca, false);
    assert.equal(leaf.notAfter.getTime() - now.getTime(), 24 * 60 * 60 * 1000);
    assert.ok(leaf.notBefore <= now);
    assert.equal(await leaf.verify({ publicKey: rootCert.publicKey, signatureOnly: true }), true);
  });
});
