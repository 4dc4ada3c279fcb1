import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { credentialFromPem, credentialToPem } from './credential.js';
import type { Credential } from './credential.js';
import { DirectoryPkiStorage } from './directory-storage.js';
import { openPki } from './open-pki.js';
import { createRootCa } from './root-ca.js';
import { LeafSigner } from './signer.js';

const folders: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'erx-pki-'));
  folders.push(dir);
  return dir;
}

after(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

function mode(path: string): Promise<number> {
  return stat(path).then((s) => s.mode & 0o777);
}

describe('DirectoryPkiStorage', () => {
  test('first start creates the root and a leaf with private files', async () => {
    const dir = join(await tempDir(), 'pki');
    const pki = await openPki({ storage: new DirectoryPkiStorage(dir) });
    await pki.signer.keyAt(new Date());
    assert.equal(await mode(dir), 0o700);
    assert.equal(await mode(join(dir, 'root-key.pem')), 0o600);
    assert.equal(await mode(join(dir, 'leaves')), 0o700);
    const leaves = await readdir(join(dir, 'leaves'));
    assert.equal(leaves.length, 2);
    for (const name of leaves.filter((n) => n.endsWith('-key.pem'))) {
      assert.equal(await mode(join(dir, 'leaves', name)), 0o600);
    }
    assert.equal(
      (await readdir(dir)).some((n) => n.endsWith('.tmp')),
      false,
    );
  });

  test('a restart loads the same root and the stored leaf', async () => {
    const dir = await tempDir();
    const first = await openPki({ storage: new DirectoryPkiStorage(dir) });
    const now = new Date();
    const key = await first.signer.keyAt(now);
    const second = await openPki({ storage: new DirectoryPkiStorage(dir) });
    assert.deepEqual(second.root.der, first.root.der);
    assert.equal(second.signer.leafCount, 1);
    assert.deepEqual((await second.signer.keyAt(now)).x5c, key.x5c);
  });

  test('a root is never overwritten', async () => {
    const storage = new DirectoryPkiStorage(await tempDir());
    await storage.saveRoot(credentialToPem(await createRootCa()));
    await assert.rejects(storage.saveRoot(credentialToPem(await createRootCa())), {
      reason: 'root_exists',
    });
  });

  test('a root certificate without its key is reported, not replaced', async () => {
    const dir = await tempDir();
    const root = credentialToPem(await createRootCa());
    await writeFile(join(dir, 'root-cert.pem'), root.certificatePem);
    await assert.rejects(openPki({ storage: new DirectoryPkiStorage(dir) }), {
      reason: 'incomplete_root',
    });
  });

  test('a leaf certificate without its key (interrupted save) is skipped', async () => {
    const dir = await tempDir();
    const storage = new DirectoryPkiStorage(dir);
    const root = await createRootCa();
    await mkdir(join(dir, 'leaves'), { recursive: true });
    await writeFile(join(dir, 'leaves', 'abc-cert.pem'), credentialToPem(root).certificatePem);
    assert.deepEqual(await storage.loadLeaves(), []);
  });

  test('leaf ids are file-name safe', async () => {
    const storage = new DirectoryPkiStorage(await tempDir());
    const pem = credentialToPem(await createRootCa());
    await assert.rejects(storage.saveLeaf('../escape', pem), TypeError);
  });
});

describe('leaves that can no longer sign lose their private keys', () => {
  const HOUR = 60 * 60 * 1000;
  // 10 h leaves are replaced 1 h before they end: a leaf's window to sign ends 9 h after it is issued.
  const LIFETIME = 10 * HOUR;

  async function root(): Promise<Credential> {
    return credentialFromPem(credentialToPem(await createRootCa()));
  }

  /** A signer over `dir` whose clock reads `clock.now`. */
  function signerOver(
    dir: string,
    issuer: Credential,
    clock: { now: number },
  ): Promise<LeafSigner> {
    return LeafSigner.open({
      storage: new DirectoryPkiStorage(dir),
      root: issuer,
      leafLifetimeMs: LIFETIME,
      now: () => clock.now,
    });
  }

  async function leafFiles(dir: string): Promise<string[]> {
    return (await readdir(join(dir, 'leaves'))).sort();
  }

  test('a rotation deletes the old leaf key and keeps its certificate; a restart holds the new one', async () => {
    const dir = await tempDir();
    const issuer = await root();
    const clock = { now: Date.now() };
    const signer = await signerOver(dir, issuer, clock);
    const first = await signer.keyAt(new Date(clock.now));
    const [firstCert, firstKey] = await leafFiles(dir);
    assert.match(firstCert!, /-cert\.pem$/);
    assert.match(firstKey!, /-key\.pem$/);
    clock.now += 9.5 * HOUR;
    const second = await signer.keyAt(new Date(clock.now));
    assert.notEqual(second.x5c[0], first.x5c[0]);
    const files = await leafFiles(dir);
    assert.equal(files.length, 3);
    assert.ok(files.includes(firstCert!), 'the old certificate is kept');
    assert.ok(!files.includes(firstKey!), 'the old private key is gone');
    assert.equal(signer.leafCount, 1);
    const restarted = await signerOver(dir, issuer, clock);
    assert.equal(restarted.leafCount, 1);
    assert.deepEqual((await restarted.keyAt(new Date(clock.now))).x5c, second.x5c);
  });

  test('a key left behind by a stop after its window passed is deleted when a signer opens', async () => {
    const dir = await tempDir();
    const issuer = await root();
    const clock = { now: Date.now() };
    await (await signerOver(dir, issuer, clock)).keyAt(new Date(clock.now));
    const [cert, key] = await leafFiles(dir);
    // Still inside the window: a restart keeps the key and signs with it.
    clock.now += 8.5 * HOUR;
    assert.equal((await signerOver(dir, issuer, clock)).leafCount, 1);
    assert.deepEqual(await leafFiles(dir), [cert, key]);
    clock.now += HOUR;
    const reopened = await signerOver(dir, issuer, clock);
    assert.equal(reopened.leafCount, 0);
    assert.deepEqual(await leafFiles(dir), [cert]);
    assert.deepEqual(await new DirectoryPkiStorage(dir).loadLeaves(), []);
  });

  test('instances sharing the directory retire the same leaf at once without an error', async () => {
    const dir = await tempDir();
    const issuer = await root();
    const clock = { now: Date.now() };
    const a = await signerOver(dir, issuer, clock);
    await a.keyAt(new Date(clock.now));
    const b = await signerOver(dir, issuer, clock);
    assert.equal(b.leafCount, 1);
    clock.now += 9.5 * HOUR;
    const [fromA, fromB] = await Promise.all([
      a.keyAt(new Date(clock.now)),
      b.keyAt(new Date(clock.now)),
    ]);
    // Each issued its own new leaf; the shared old one lost its key once, and nothing else did.
    assert.notEqual(fromA.x5c[0], fromB.x5c[0]);
    const files = await leafFiles(dir);
    assert.equal(files.filter((n) => n.endsWith('-cert.pem')).length, 3);
    assert.equal(files.filter((n) => n.endsWith('-key.pem')).length, 2);
    const storage = new DirectoryPkiStorage(dir);
    const [retired] = (await readdir(join(dir, 'leaves'))).filter(
      (n) => n.endsWith('-cert.pem') && !files.includes(n.replace('-cert.pem', '-key.pem')),
    );
    await storage.retireLeaf(retired!.replace('-cert.pem', ''));
    await assert.rejects(storage.retireLeaf('../escape'), TypeError);
  });
});
