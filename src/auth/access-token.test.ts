/** The tag of embedded tokens: issued tokens carry it, made-up or foreign ones do not. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateAccessToken, tokenIssuedFor, tokenTagged } from './access-token.js';
import { Pepper } from './pepper.js';

const pepper = new Pepper(randomBytes(32));
const binding = {
  client: { clientId: 'c1', role: 'pharmacist' as const, sub: 's1', name: 'Apotheke' },
  expiresAt: 1_700_000_000_000,
};

describe('the tag of an access token', () => {
  it('is carried by every issued token, which still binds its client', () => {
    for (let i = 0; i < 20; i++) {
      const token = generateAccessToken(pepper, binding);
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(tokenTagged(pepper, token), true);
      assert.equal(tokenIssuedFor(pepper, token, binding), true);
    }
  });

  it('is missing from made-up tokens, edited ones and those of another pepper', () => {
    const made = Array.from({ length: 20 }, () => randomBytes(32).toString('base64url'));
    assert.deepEqual(
      made.map((t) => tokenTagged(pepper, t)),
      Array(20).fill(false),
    );
    const token = generateAccessToken(pepper, binding);
    const bytes = Buffer.from(token, 'base64url');
    bytes[10]! ^= 1;
    assert.equal(tokenTagged(pepper, bytes.toString('base64url')), false);
    assert.equal(tokenTagged(new Pepper(randomBytes(32)), token), false);
    assert.equal(tokenTagged(pepper, `${token}A`), false);
  });
});
