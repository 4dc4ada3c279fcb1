import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify, webcrypto } from 'node:crypto';
import { threadNiceness } from '../../test/support/thread-niceness.js';
import { SIGNING_THREAD_NICENESS, SignPool } from './sign-pool.js';

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

  test('counts the signatures asked for and not yet answered', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    assert.equal(pool.waiting, 0);
    const asked = Array.from({ length: 10 }, (_, i) => pool.sign(privateKey, '', `w${i}`));
    assert.equal(pool.waiting, 10);
    await Promise.all(asked);
    assert.equal(pool.waiting, 0);
  });

  test('start() starts every thread before the first signature', async () => {
    const fresh = new SignPool(2);
    try {
      assert.equal(fresh.started, 0);
      fresh.start();
      assert.equal(fresh.started, 2);
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
      await Promise.all([1, 2, 3].map((i) => fresh.sign(privateKey, '', `s${i}`)));
      assert.equal(fresh.started, 2);
    } finally {
      await fresh.close();
    }
  });

  test('idle threads do not keep the process alive; close() ends them and refuses later signatures', async () => {
    const ports = (): number =>
      process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const before = ports();
    const fresh = new SignPool(2);
    fresh.start();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    await Promise.all([1, 2, 3].map((i) => fresh.sign(privateKey, '', `i${i}`)));
    assert.equal(ports(), before, 'an idle thread holds the event loop');
    await fresh.close();
    assert.equal(fresh.started, 0);
    await assert.rejects(fresh.sign(privateKey, '', 'late'), /closed/);
    fresh.start();
    assert.equal(fresh.started, 0);
  });

  test(
    'signing threads run below the event loop (Linux): the main thread keeps its priority',
    { skip: process.platform !== 'linux' && 'thread priorities are per thread on Linux only' },
    async () => {
      const before = threadNiceness();
      const own = before.get(process.pid)!;
      const fresh = new SignPool(2);
      try {
        const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
        await Promise.all([1, 2, 3, 4].map((i) => fresh.sign(privateKey, '', `x${i}`)));
        const after = threadNiceness();
        assert.equal(after.get(process.pid), own);
        const expected = Math.min(19, own + SIGNING_THREAD_NICENESS);
        const started = [...after].filter(([tid]) => !before.has(tid));
        if (expected === own) {
          // Run at the lowest priority already (`nice -n 19 npm test`): none can be lower.
          assert.ok(started.filter(([, nice]) => nice === own).length >= 2);
        } else {
          const lowered = started.filter(([, nice]) => nice !== own);
          assert.deepEqual(
            lowered.map(([, nice]) => nice),
            Array<number>(2).fill(expected),
          );
        }
      } finally {
        await fresh.close();
      }
    },
  );
});
