/**
 * erx signs and checks event signatures with node:crypto; jose, an implementation erx did not
 * write, must agree with both: it accepts what erx signs, and erx accepts what it signs.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import { CompactSign, compactVerify, importX509 } from 'jose';
import { MemoryPkiStorage, openPki } from '../pki/index.js';
import { sha256Hex } from './hash.js';
import { jwsSignatureHolds } from './inspect-jws.js';
import { signEventHash } from './sign-event-hash.js';

const flipLastSignatureBit = (jws: string): string => {
  const dot = jws.lastIndexOf('.');
  const signature = Buffer.from(jws.slice(dot + 1), 'base64url');
  signature[signature.length - 1]! ^= 1;
  return `${jws.slice(0, dot + 1)}${signature.toString('base64url')}`;
};

describe('event signatures and jose', () => {
  test('jose verifies what erx signs, under the x5c leaf', async () => {
    const pki = await openPki({ storage: new MemoryPkiStorage() });
    const key = await pki.signer.keyAt(new Date());
    const hash = sha256Hex('an event');
    const jws = await signEventHash(hash, key);
    const leafPem = `-----BEGIN CERTIFICATE-----\n${key.x5c[0]}\n-----END CERTIFICATE-----`;
    const leaf = await importX509(leafPem, 'ES384');
    const { payload } = await compactVerify(jws, leaf, { algorithms: ['ES384'] });
    assert.equal(Buffer.from(payload).toString('utf8'), hash);
    await assert.rejects(compactVerify(flipLastSignatureBit(jws), leaf, { algorithms: ['ES384'] }));
  });

  test('erx accepts what jose signs and refuses it altered or under another key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    const jws = await new CompactSign(Buffer.from(sha256Hex('another event'), 'utf8'))
      .setProtectedHeader({ alg: 'ES384' })
      .sign(privateKey);
    assert.equal(jwsSignatureHolds(jws, publicKey), true);
    assert.equal(jwsSignatureHolds(flipLastSignatureBit(jws), publicKey), false);
    assert.equal(jwsSignatureHolds(jws, other), false);
    // A signature of another length (DER form, or cut short) is refused, not thrown.
    assert.equal(jwsSignatureHolds(`${jws.slice(0, jws.lastIndexOf('.'))}.AAAA`, publicKey), false);
  });
});
