import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { credentialToPem } from './credential.js';
import { DirectoryPkiStorage } from './directory-storage.js';
import { openPki } from './open-pki.js';
import { createRootCa } from './root-ca.js';

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
