/** The pepper: MACs that keep purposes and parts apart, and no short keys. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { MIN_PEPPER_BYTES, Pepper } from './pepper.js';

describe('Pepper', () => {
  const key = randomBytes(32);
  const pepper = new Pepper(key);

  it('is an HMAC-SHA-256 under the key, and another key gives another MAC', () => {
    const mac = pepper.mac('access token', ['t']);
    assert.equal(mac.length, 32);
    const expected = createHmac('sha256', key)
      .update('erx access token\u0000')
      .update(Buffer.from([0, 0, 0, 1]))
      .update('t')
      .digest();
    assert.deepEqual(mac, expected);
    assert.notDeepEqual(new Pepper(randomBytes(32)).mac('access token', ['t']), mac);
  });

  it('keeps purposes and the bounds of parts apart', () => {
    const macs = [
      pepper.mac('a', ['bc']),
      pepper.mac('a', ['b', 'c']),
      pepper.mac('a', ['bc', '']),
      pepper.mac('b', ['bc']),
      pepper.mac('a', [Buffer.from('bd')]),
    ].map((m) => m.toString('hex'));
    assert.equal(new Set(macs).size, macs.length);
    assert.deepEqual(pepper.mac('a', [Buffer.from('bc')]), pepper.mac('a', ['bc']));
  });

  it(`refuses a key shorter than ${MIN_PEPPER_BYTES} bytes`, () => {
    assert.throws(() => new Pepper(randomBytes(MIN_PEPPER_BYTES - 1)), RangeError);
  });
});
