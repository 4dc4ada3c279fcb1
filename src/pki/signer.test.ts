import assert from 'node:assert/strict';
import { test } from 'node:test';
import { credentialFromPem, credentialToPem } from './credential.js';
import { MemoryPkiStorage } from './memory-storage.js';
import { createRootCa } from './root-ca.js';
import { LeafSigner } from './signer.js';
import { x509 } from './x509.js';

const HOUR = 60 * 60 * 1000;

async function signer(storage = new MemoryPkiStorage()): Promise<LeafSigner> {
  const root = await credentialFromPem(credentialToPem(await createRootCa()));
  return LeafSigner.open({ storage, root, leafLifetimeMs: 10 * HOUR });
}

test('concurrent requests share one new leaf', async () => {
  const storage = new MemoryPkiStorage();
  const leafSigner = await signer(storage);
  const now = new Date();
  const keys = await Promise.all(Array.from({ length: 8 }, () => leafSigner.keyAt(now)));
  assert.equal(new Set(keys.map((k) => k.x5c[0])).size, 1);
  assert.equal((await storage.loadLeaves()).length, 1);
});

test('a leaf is replaced shortly before it expires, and the old one is kept', async () => {
  const storage = new MemoryPkiStorage();
  const leafSigner = await signer(storage);
  const start = new Date();
  const first = await leafSigner.keyAt(start);
  // Default renewal margin: a tenth of the lifetime (1 h of 10 h).
  const stillFirst = await leafSigner.keyAt(new Date(start.getTime() + 8.5 * HOUR));
  const second = await leafSigner.keyAt(new Date(start.getTime() + 9.5 * HOUR));
  assert.equal(stillFirst.x5c[0], first.x5c[0]);
  assert.notEqual(second.x5c[0], first.x5c[0]);
  assert.equal((await storage.loadLeaves()).length, 2);
  assert.ok(second.notAfter > first.notAfter);
});

test('leaves of another root are ignored on open', async () => {
  const storage = new MemoryPkiStorage();
  await (await signer(storage)).keyAt(new Date());
  const other = await signer(storage);
  assert.equal(other.leafCount, 0);
});

test('a rotation retires the leaf whose window has passed; a leaf still in its window stays', async () => {
  const storage = new MemoryPkiStorage();
  const root = await credentialFromPem(credentialToPem(await createRootCa()));
  const clock = { now: Date.now() };
  const leafSigner = await LeafSigner.open({
    storage,
    root,
    leafLifetimeMs: 10 * HOUR,
    now: () => clock.now,
  });
  await leafSigner.keyAt(new Date(clock.now));
  // A leaf issued ahead of time (for an event dated later) is not retired by a rotation.
  const ahead = await leafSigner.keyAt(new Date(clock.now + 9.5 * HOUR));
  assert.equal((await storage.loadLeaves()).length, 2);
  clock.now += 9.5 * HOUR;
  await leafSigner.keyAt(new Date(clock.now + 9 * HOUR));
  const kept = await storage.loadLeaves();
  assert.equal(kept.length, 2);
  assert.equal(leafSigner.leafCount, 2);
  const aheadSerial = new x509.X509Certificate(Buffer.from(ahead.x5c[0], 'base64')).serialNumber;
  assert.ok(kept.some((leaf) => leaf.id === aheadSerial));
});
