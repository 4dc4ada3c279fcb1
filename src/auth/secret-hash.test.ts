import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SecretHashes, generateSecret, libuvScrypt } from './secret-hash.js';
import type { ScryptJob, ScryptRunner } from './secret-hash.js';

const secrets = new SecretHashes(libuvScrypt);
const hashSecret = (secret: string) => secrets.hash(secret);
const verifySecret = (secret: string, stored: string | undefined) => secrets.verify(secret, stored);

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

  it('writes a self-describing scrypt hash that does not contain the secret', async () => {
    const secret = 'correct horse battery staple';
    const stored = await hashSecret(secret);
    assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
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

  it('never matches a malformed or tampered hash', async () => {
    const secret = 'another-secret';
    const stored = await hashSecret(secret);
    const [scheme, n, r, p, salt, key] = stored.split('$') as [string, ...string[]];
    const flippedKey = `${key?.startsWith('A') ? 'B' : 'A'}${key?.slice(1)}`;
    const cases: Record<string, string> = {
      empty: '',
      'other scheme': ['bcrypt', n, r, p, salt, key].join('$'),
      'N not a power of two': [scheme, '30000', r, p, salt, key].join('$'),
      'N far too large': [scheme, String(2 ** 30), r, p, salt, key].join('$'),
      'r zero': [scheme, n, '0', p, salt, key].join('$'),
      'p not a number': [scheme, n, r, 'x', salt, key].join('$'),
      'extra part': `${stored}$x`,
      'missing key': [scheme, n, r, p, salt].join('$'),
      'key too short': [scheme, n, r, p, salt, 'AAAA'].join('$'),
      'salt not base64url': [scheme, n, r, p, 'a+b/', key].join('$'),
      'key changed': [scheme, n, r, p, salt, flippedKey].join('$'),
    };
    for (const [label, bad] of Object.entries(cases)) {
      assert.equal(await verifySecret(secret, bad), false, label);
    }
  });

  it('costs the same scrypt run for a malformed hash and an unknown client as for a real one', async () => {
    const runner = recording();
    const measured = new SecretHashes(runner);
    const stored = await measured.hash('the-real-secret');
    runner.jobs.length = 0;
    assert.equal(await measured.verify('the-real-secret', stored), true);
    assert.equal(await measured.verify('the-real-secret', undefined), false);
    assert.equal(await measured.verify('the-real-secret', 'scrypt$1$1$1$x$y'), false);
    const costs = runner.jobs.map(({ n, r, p, keyLength }) => ({ n, r, p, keyLength }));
    assert.equal(costs.length, 3);
    for (const cost of costs) assert.deepEqual(cost, costs[0]);
  });

  it('hands every scrypt run to its runner, with the caller as the lane', async () => {
    const lanes: (string | undefined)[] = [];
    const measured = new SecretHashes({
      derive: (job, lane) => {
        lanes.push(lane);
        return libuvScrypt.derive(job, lane);
      },
    });
    const stored = await measured.hash('lane-secret-0123');
    assert.equal(await measured.verify('lane-secret-0123', stored, '192.0.2.7'), true);
    assert.deepEqual(lanes, [undefined, '192.0.2.7']);
  });
});
