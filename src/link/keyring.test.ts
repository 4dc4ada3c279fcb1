import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { thumbprint } from './key-material.js';
import { LinkKeyring } from './keyring.js';
import { KeyringError } from './keyring-error.js';
import type { KeyringErrorReason } from './keyring-error.js';
import { RING_FILE } from './ring-store.js';
import { reasonOf as refusalReason } from '../../test/support/refusals.js';

const root = mkdtempSync(join(tmpdir(), 'erx-keyring-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
function freshDir(): string {
  return join(root, `ring-${++dirs}`, 'link-keys');
}

const T0 = 1_700_000_000;

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

function ringText(dir: string): string {
  return readFileSync(join(dir, RING_FILE), 'utf8');
}

const reasonOf = (action: () => unknown): KeyringErrorReason => refusalReason(KeyringError, action);

describe('LinkKeyring on disk', () => {
  test('open creates the directory (0700), the ring file (0600) and one current key', () => {
    const dir = freshDir();
    const ring = LinkKeyring.open(dir, { now: T0 });
    assert.equal(mode(dir), 0o700);
    assert.equal(mode(join(dir, RING_FILE)), 0o600);
    const keys = ring.list();
    assert.equal(keys.length, 1);
    assert.deepEqual(
      { createdAt: keys[0]?.createdAt, retiredAt: keys[0]?.retiredAt, current: keys[0]?.current },
      { createdAt: T0, retiredAt: null, current: true },
    );
    // Only the ring itself is left behind: no temporary or lock files.
    assert.deepEqual(readdirSync(dir), [RING_FILE]);
  });

  test('reopening from disk gives the same keys, and the same signatures', () => {
    const dir = freshDir();
    const first = LinkKeyring.open(dir, { now: T0 });
    const again = LinkKeyring.open(dir, { now: T0 + 999 });
    assert.deepEqual(again.publicKeys(), first.publicKeys());
    const data = Buffer.from('CHMED16A1x&i=a&t=1');
    // Ed25519 is deterministic: the same private key gives the same signature.
    assert.deepEqual(again.sign(data), first.sign(data));
  });

  test('rotate retires the current key, deletes its private half and keeps its public half', async () => {
    const dir = freshDir();
    const ring = LinkKeyring.open(dir, { now: T0 });
    const before = ring.current();
    const created = await ring.rotate(T0 + 100);
    assert.notEqual(created.kid, before.kid);
    assert.deepEqual(
      ring
        .list()
        .map(({ kid, createdAt, retiredAt, current }) => ({ kid, createdAt, retiredAt, current })),
      [
        { kid: before.kid, createdAt: T0, retiredAt: T0 + 100, current: false },
        { kid: created.kid, createdAt: T0 + 100, retiredAt: null, current: true },
      ],
    );
    const stored = JSON.parse(ringText(dir)) as { keys: { kid: string; privateKey?: string }[] };
    assert.deepEqual(
      stored.keys.map((key) => [key.kid, key.privateKey !== undefined]),
      [
        [before.kid, false],
        [created.kid, true],
      ],
    );
    assert.equal(mode(join(dir, RING_FILE)), 0o600);
    assert.deepEqual(readdirSync(dir), [RING_FILE]);
  });

  test('a rotation by another process reaches an open ring on its next use', async () => {
    const dir = freshDir();
    const service = LinkKeyring.open(dir, { now: T0 });
    const cli = LinkKeyring.open(dir);
    const created = await cli.rotate(T0 + 50);
    assert.equal(service.current().kid, created.kid);
    const data = Buffer.from('CHMED16A1x&i=a&t=1');
    const newKey = createPublicKey(service.publicKeys().at(-1)?.pem ?? '');
    assert.equal(verify(null, data, newKey, service.sign(data)), true);
  });

  test("with recheckMs, another process's rotation is adopted once due, or at once on refresh(true)", async () => {
    const dir = freshDir();
    const service = LinkKeyring.open(dir, { now: T0, recheckMs: 60_000 });
    const before = service.current().kid;
    const generation = service.generation;
    const created = await LinkKeyring.open(dir).rotate(T0 + 50);
    // Not due yet: the ring in memory stands, and nothing was re-read.
    assert.equal(service.current().kid, before);
    assert.equal(service.generation, generation);
    assert.equal(service.refresh(true), true);
    assert.equal(service.current().kid, created.kid);
    assert.equal(service.generation, generation + 1);
    assert.equal(service.refresh(true), false, 'an unchanged ring is no change');
  });

  test("a ring's own rotation is adopted at once whatever recheckMs says", async () => {
    const dir = freshDir();
    const ring = LinkKeyring.open(dir, { now: T0, recheckMs: 60_000 });
    const created = await ring.rotate(T0 + 50);
    assert.equal(ring.current().kid, created.kid);
  });

  test('rotations from two rings open on the same directory lose no key', async () => {
    const dir = freshDir();
    const a = LinkKeyring.open(dir, { now: T0 });
    const b = LinkKeyring.open(dir);
    const created = await Promise.all([a.rotate(T0 + 1), b.rotate(T0 + 2), a.rotate(T0 + 3)]);
    const kids = a.list().map((key) => key.kid);
    assert.equal(kids.length, 4);
    for (const key of created) assert.ok(kids.includes(key.kid));
    assert.deepEqual(b.list(), a.list());
  });

  test('two rings opened at once on an empty directory agree on the first key', () => {
    const dir = freshDir();
    const rings = [LinkKeyring.open(dir), LinkKeyring.open(dir), LinkKeyring.open(dir)];
    const kids = new Set(rings.map((ring) => ring.current().kid));
    assert.equal(kids.size, 1);
  });

  test('public keys come as JWK and PEM of the same key, kid its RFC 7638 thumbprint', () => {
    const ring = LinkKeyring.open(freshDir(), { now: T0 });
    const [key] = ring.publicKeys();
    assert.ok(key);
    assert.deepEqual(key.jwk, {
      kty: 'OKP',
      crv: 'Ed25519',
      x: key.jwk.x,
      kid: key.kid,
      alg: 'EdDSA',
      use: 'sig',
    });
    assert.equal(createPublicKey(key.pem).export({ format: 'jwk' }).x, key.jwk.x);
    assert.equal(thumbprint(key.jwk.x), key.kid);
    assert.equal(key.fingerprint, key.fingerprint.toLowerCase());
    assert.equal(key.fingerprint.length, 64);
    assert.equal(JSON.stringify(key).includes('"d"'), false);
  });

  test('sign with an issue time before the current key existed is refused', () => {
    const ring = LinkKeyring.open(freshDir(), { now: T0 });
    assert.equal(
      reasonOf(() => ring.sign(Buffer.from('x'), T0 - 3600)),
      'not_current',
    );
    assert.equal(ring.sign(Buffer.from('x'), T0).length, 64);
  });
});

describe('LinkKeyring refuses a corrupt ring', () => {
  // A valid ring to damage, and a foreign key pair.
  const template = (): {
    dir: string;
    file: { format: string; keys: Record<string, unknown>[] };
  } => {
    const dir = freshDir();
    LinkKeyring.open(dir, { now: T0 });
    return {
      dir,
      file: JSON.parse(ringText(dir)) as { format: string; keys: Record<string, unknown>[] },
    };
  };
  const foreign = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });

  const damages: [
    string,
    (file: { format: string; keys: Record<string, unknown>[] }) => unknown,
  ][] = [
    ['not JSON', () => '{"format":'],
    ['empty file', () => ''],
    ['wrong format tag', (file) => ({ ...file, format: 'something-else/1' })],
    ['no keys', (file) => ({ ...file, keys: [] })],
    ['unknown property', (file) => ({ ...file, extra: 1 })],
    [
      'kid that is not the thumbprint',
      (file) => ({ ...file, keys: [{ ...file.keys[0], kid: thumbprint(foreign.x ?? '') }] }),
    ],
    [
      'private key of another key',
      (file) => ({ ...file, keys: [{ ...file.keys[0], privateKey: foreign.d }] }),
    ],
    [
      'current key without private key',
      (file) => ({ ...file, keys: [{ ...file.keys[0], privateKey: undefined }] }),
    ],
    ['retired last key', (file) => ({ ...file, keys: [{ ...file.keys[0], retiredAt: T0 + 1 }] })],
    [
      'time as a string',
      (file) => ({ ...file, keys: [{ ...file.keys[0], createdAt: String(T0) }] }),
    ],
    ['fractional time', (file) => ({ ...file, keys: [{ ...file.keys[0], createdAt: T0 + 0.5 }] })],
    ['two current keys', (file) => ({ ...file, keys: [file.keys[0], file.keys[0]] })],
  ];

  for (const [name, damage] of damages) {
    test(name, () => {
      const { dir, file } = template();
      const damaged = damage(file);
      writeFileSync(
        join(dir, RING_FILE),
        typeof damaged === 'string' ? damaged : JSON.stringify(damaged),
      );
      assert.equal(
        reasonOf(() => LinkKeyring.open(dir)),
        'corrupt',
      );
    });
  }

  test('a ring damaged while open is refused on its next use, with the code internal_error', () => {
    const { dir } = template();
    const ring = LinkKeyring.open(dir);
    writeFileSync(join(dir, RING_FILE), 'garbage');
    try {
      ring.sign(Buffer.from('x'));
      assert.fail('expected a KeyringError');
    } catch (error) {
      assert.ok(error instanceof KeyringError);
      assert.equal(error.reason, 'corrupt');
      assert.equal(error.code, 'internal_error');
    }
  });

  test('a ring file that cannot be read is an io error', () => {
    const dir = freshDir();
    // A directory where the ring file should be: unreadable as a file, also for root.
    mkdirSync(join(dir, RING_FILE), { recursive: true });
    assert.equal(
      reasonOf(() => LinkKeyring.open(dir)),
      'io',
    );
  });
});

describe('signatures of the ring', () => {
  test('are Ed25519 signatures under the current public key', () => {
    const ring = LinkKeyring.open(freshDir(), { now: T0 });
    const data = Buffer.from('CHMED16A1x&i=a&t=1700000000');
    const signature = ring.sign(data);
    const pem = ring.publicKeys()[0]?.pem ?? '';
    assert.equal(verify(null, data, createPublicKey(pem), signature), true);
    const { privateKey } = generateKeyPairSync('ed25519');
    assert.equal(verify(null, data, createPublicKey(pem), sign(null, data, privateKey)), false);
  });
});
