import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify, webcrypto } from 'node:crypto';
import { SignPool } from './sign-pool.js';

const pool = new SignPool(2);
after(() => pool.close());

describe('SignPool', () => {
  test('ES384 signatures made on the pool verify (P1363), from KeyObjects and CryptoKeys', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
      'sign',
      'verify',
    ]);
    const inputs = Array.from({ length: 40 }, (_, i) => `header.payload-${i}-ü`);
    // A shared start passed as the prefix signs exactly like the whole input.
    const fromObject = await Promise.all(
      inputs.map((input) => pool.sign(privateKey, 'header.', input.slice('header.'.length))),
    );
    const fromCrypto = await Promise.all(
      inputs.map((input) => pool.sign(pair.privateKey, '', input)),
    );
    for (const [i, input] of inputs.entries()) {
      const data = Buffer.from(input, 'utf8');
      const a = Buffer.from(fromObject[i]!, 'base64url');
      const b = Buffer.from(fromCrypto[i]!, 'base64url');
      assert.equal(a.length, 96);
      assert.equal(verify('sha384', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, a), true);
      const ok = await webcrypto.subtle.verify(
        { name: 'ECDSA', hash: 'SHA-384' },
        pair.publicKey,
        b,
        data,
      );
      assert.equal(ok, true);
    }
    assert.equal(new Set(fromObject).size, inputs.length);
  });

  test('a key that cannot make ES384 signatures is refused with an error, and the pool goes on', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    await assert.rejects(pool.sign(privateKey, '', 'x'), /ES384 signing failed/);
    const { privateKey: good } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    assert.equal(Buffer.from(await pool.sign(good, '', 'x'), 'base64url').length, 96);
  });
});
