import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { Pepper } from './pepper.js';
import {
  MIN_SECRET_COST,
  SECRET_COST,
  SecretHashes,
  generateSecret,
  isBoundSecretHash,
  libuvScrypt,
} from './secret-hash.js';
import type { ClientIdentity, ScryptJob, ScryptRunner } from './secret-hash.js';

const pepper = new Pepper(randomBytes(32));
const secrets = new SecretHashes(pepper, libuvScrypt);
const CLIENT: ClientIdentity = {
  clientId: 'pharma1',
  role: 'pharmacist',
  sub: 'HIN|pharma1',
  name: 'Apotheke am Platz',
};
const hashSecret = (secret: string) => secrets.hash(secret, CLIENT);
const verifySecret = (secret: string, stored: string | undefined, client = CLIENT) =>
  secrets.verify(secret, stored, client);

/** A hash as erx wrote it before hashes were bound to the pepper (cheap parameters). */
function olderHash(secret: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A runner that records the jobs it is given and runs them on libuv's pool. */
function recording(): ScryptRunner & { jobs: ScryptJob[] } {
  const jobs: ScryptJob[] = [];
  return {
    jobs,
    derive: (job, lane) => {
      jobs.push(job);
      return libuvScrypt.derive(job, lane);
    },
  };
}

describe('client secrets', () => {
  it('generates 32 random bytes as base64url, different every time', () => {
    const a = generateSecret();
    const b = generateSecret();
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(a, 'base64url').length, 32);
    assert.notEqual(a, b);
  });

  it('writes a self-describing hash bound to the pepper that does not contain the secret', async () => {
    const secret = 'correct horse battery staple';
    const stored = await hashSecret(secret);
    assert.match(stored, /^scrypt-hmac\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(isBoundSecretHash(stored), true);
    assert.ok(!stored.includes(secret));
    assert.ok(!stored.includes(Buffer.from(secret).toString('base64url')));
  });

  it('salts: the same secret hashes differently twice, both verify', async () => {
    const secret = generateSecret();
    const first = await hashSecret(secret);
    const second = await hashSecret(secret);
    assert.notEqual(first, second);
    assert.equal(await verifySecret(secret, first), true);
    assert.equal(await verifySecret(secret, second), true);
  });

  it('refuses a wrong secret, a prefix and the empty secret', async () => {
    const stored = await hashSecret('s3cret-s3cret');
    assert.equal(await verifySecret('s3cret-s3creT', stored), false);
    assert.equal(await verifySecret('s3cret-s3cre', stored), false);
    assert.equal(await verifySecret('', stored), false);
  });

  it('binds the hash to the pepper and to the client: id, role, sub and name', async () => {
    const secret = 'bound-secret-0123';
    const stored = await hashSecret(secret);
    const elsewhere = new SecretHashes(new Pepper(randomBytes(32)), libuvScrypt);
    assert.equal(await elsewhere.verify(secret, stored, CLIENT), false, 'another pepper');
    const others: Record<string, ClientIdentity> = {
      'another client id': { ...CLIENT, clientId: 'pharma2' },
      'another role': { ...CLIENT, role: 'prescriber' },
      'another sub': { ...CLIENT, sub: 'HIN|doc1' },
      'another name': { ...CLIENT, name: 'Dr. Anna Muster' },
    };
    for (const [label, client] of Object.entries(others)) {
      assert.equal(await verifySecret(secret, stored, client), false, label);
    }
  });

  it('never matches a hash of the older, unbound form, until upgraded under the pepper', async () => {
    const secret = 'older-secret-0123';
    const older = olderHash(secret);
    assert.equal(isBoundSecretHash(older), false);
    assert.equal(await verifySecret(secret, older), false);
    const upgraded = secrets.upgrade(older, CLIENT)!;
    assert.match(upgraded, /^scrypt-hmac\$1024\$8\$1\$/);
    assert.equal(await verifySecret(secret, upgraded), true);
    assert.equal(await verifySecret('older-secret-0124', upgraded), false);
    assert.equal(await verifySecret(secret, upgraded, { ...CLIENT, clientId: 'x' }), false);
    assert.equal(secrets.upgrade(upgraded, CLIENT), undefined, 'a bound hash is not upgraded');
    assert.equal(secrets.upgrade('scrypt$1$2', CLIENT), undefined);
  });

  it('never matches a malformed or tampered hash', async () => {
    const secret = 'another-secret';
    const stored = await hashSecret(secret);
    const [scheme, n, r, p, salt, mac] = stored.split('$') as [string, ...string[]];
    const flipped = `${mac?.startsWith('A') ? 'B' : 'A'}${mac?.slice(1)}`;
    const cases: Record<string, string> = {
      empty: '',
      'other scheme': ['bcrypt', n, r, p, salt, mac].join('$'),
      'N not a power of two': [scheme, '30000', r, p, salt, mac].join('$'),
      'N far too large': [scheme, String(2 ** 30), r, p, salt, mac].join('$'),
      'r zero': [scheme, n, '0', p, salt, mac].join('$'),
      'p not a number': [scheme, n, r, 'x', salt, mac].join('$'),
      'extra part': `${stored}$x`,
      'missing mac': [scheme, n, r, p, salt].join('$'),
      'mac too short': [scheme, n, r, p, salt, 'AAAA'].join('$'),
      'salt not base64url': [scheme, n, r, p, 'a+b/', mac].join('$'),
      'mac changed': [scheme, n, r, p, salt, flipped].join('$'),
    };
    for (const [label, bad] of Object.entries(cases)) {
      assert.equal(await verifySecret(secret, bad), false, label);
    }
  });

  it('costs the same scrypt run for a malformed hash and an unknown client as for a real one', async () => {
    const runner = recording();
    const measured = new SecretHashes(pepper, runner);
    const stored = await measured.hash('the-real-secret', CLIENT);
    runner.jobs.length = 0;
    assert.equal(await measured.verify('the-real-secret', stored, CLIENT), true);
    assert.equal(await measured.verify('the-real-secret', undefined, CLIENT), false);
    assert.equal(await measured.verify('the-real-secret', 'scrypt$1$1$1$x$y', CLIENT), false);
    const costs = runner.jobs.map(({ n, r, p, keyLength }) => ({ n, r, p, keyLength }));
    assert.equal(costs.length, 3);
    for (const cost of costs) assert.deepEqual(cost, costs[0]);
  });

  it('hands every scrypt run to its runner, with the caller as the lane', async () => {
    const lanes: (string | undefined)[] = [];
    const measured = new SecretHashes(pepper, {
      derive: (job, lane) => {
        lanes.push(lane);
        return libuvScrypt.derive(job, lane);
      },
    });
    const stored = await measured.hash('lane-secret-0123', CLIENT);
    assert.equal(await measured.verify('lane-secret-0123', stored, CLIENT, '192.0.2.7'), true);
    assert.deepEqual(lanes, [undefined, '192.0.2.7']);
  });

  it('writes hashes at its cost, checks each at the cost it names, refuses a cost out of range', async () => {
    const runner = recording();
    const cheap = new SecretHashes(pepper, runner, MIN_SECRET_COST);
    const stored = await cheap.hash('s3cret', CLIENT);
    assert.equal(stored.split('$')[1], String(MIN_SECRET_COST));
    // A service at the full cost still checks the cheap hash at the cost the hash names.
    const full = new SecretHashes(pepper, runner);
    assert.equal(await full.verify('s3cret', stored, CLIENT), true);
    assert.equal(runner.jobs[1]?.n, MIN_SECRET_COST);
    // An unknown client costs what this service's own hashes cost.
    await full.verify('s3cret', undefined, CLIENT);
    assert.equal(runner.jobs[2]?.n, SECRET_COST);
    for (const cost of [512, 3000, 2 ** 21]) {
      assert.throws(() => new SecretHashes(pepper, runner, cost), RangeError, String(cost));
    }
  });
});
