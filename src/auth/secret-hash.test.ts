import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateSecret, hashSecret, verifySecret } from './secret-hash.js';

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
});
