/**
 * Negative signature vectors, JWS level: algorithm, header parameters,
 * signature bytes and single bit flips. None may be accepted, each for its own reason.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sha256Hex } from './hash.js';
import { x5cEntry } from '../../test/support/ledger/certificates.js';
import {
  b64url,
  derSignature,
  flipBit,
  headerText,
  rawSignature,
  replaceSegment,
  scalar,
  segmentBytes,
  signCompact,
} from '../../test/support/ledger/jws.js';
import { ES384, signatureFixture } from '../../test/support/ledger/signature-fixture.js';
import type { SignatureFixture } from '../../test/support/ledger/signature-fixture.js';

/** Order of the P-384 group (FIPS 186-4 D.1.2.4). */
const N = BigInt(
  '0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973',
);

let f: SignatureFixture;

before(async () => {
  f = await signatureFixture();
});

/** The valid signature with `r` or `s` replaced. */
function withScalars(r?: bigint, s?: bigint): string {
  const raw = segmentBytes(f.record.signature, 2);
  const newR = r === undefined ? raw.slice(0, 48) : scalar(r);
  const newS = s === undefined ? raw.slice(48) : scalar(s);
  return replaceSegment(f.record.signature, 2, rawSignature(newR, newS));
}

async function withExtraHeader(extra: Record<string, unknown>): Promise<string> {
  return f.signedBy(await f.leaf(), undefined, extra);
}

const vectors: Array<[string, () => Promise<string>, string]> = [
  [
    'alg none',
    async () => {
      const header = headerText([x5cEntry(await f.leaf()), f.rootB64], {}, 'none');
      return `${b64url(header)}.${b64url(f.record.hash)}.`;
    },
    'jws_alg',
  ],
  [
    'HS384 keyed with the leaf public key',
    async () => {
      const cert = await f.leaf();
      const spki = new Uint8Array(cert.certificate.publicKey.rawData);
      const hmac = { name: 'HMAC', hash: 'SHA-384' };
      const key = await crypto.subtle.importKey('raw', spki, hmac, false, ['sign']);
      const header = headerText([x5cEntry(cert), f.rootB64], {}, 'HS384');
      return signCompact(header, f.record.hash, key, 'HMAC');
    },
    'jws_alg',
  ],
  [
    'ES256 with a P-256 leaf issued by the root',
    async () => {
      const cert = await f.leaf({ curve: 'P-256' });
      const header = headerText([x5cEntry(cert), f.rootB64], {}, 'ES256');
      return signCompact(header, f.record.hash, cert.privateKey, {
        name: 'ECDSA',
        hash: 'SHA-256',
      });
    },
    'jws_alg',
  ],
  [
    'ES512 with a P-521 leaf issued by the root',
    async () => {
      const cert = await f.leaf({ curve: 'P-521' });
      const header = headerText([x5cEntry(cert), f.rootB64], {}, 'ES512');
      return signCompact(header, f.record.hash, cert.privateKey, {
        name: 'ECDSA',
        hash: 'SHA-512',
      });
    },
    'jws_alg',
  ],
  [
    'DER-encoded signature',
    async () => {
      const der = derSignature(segmentBytes(f.record.signature, 2));
      return replaceSegment(f.record.signature, 2, der);
    },
    'jws_signature',
  ],
  ['all-zero signature', async () => withScalars(0n, 0n), 'jws_signature'],
  ['r = n', async () => withScalars(N, undefined), 'jws_signature'],
  ['s = n', async () => withScalars(undefined, N), 'jws_signature'],
  [
    'r and s = 2^384 - 1 (above n)',
    async () => withScalars(2n ** 384n - 1n, 2n ** 384n - 1n),
    'jws_signature',
  ],
  ['unknown crit header', () => withExtraHeader({ crit: ['exp'], exp: 1 }), 'jws_header'],
  ['jku header', () => withExtraHeader({ jku: 'https://evil.example/jwks' }), 'jws_header'],
  ['x5u header', () => withExtraHeader({ x5u: 'https://evil.example/cert' }), 'jws_header'],
  ['kid header', () => withExtraHeader({ kid: 'leaf-1' }), 'jws_header'],
  [
    'unencoded payload (b64 false)',
    () => withExtraHeader({ b64: false, crit: ['b64'] }),
    'jws_header',
  ],
  [
    'jwk header carrying the attacker key',
    async () => {
      const params = { name: 'ECDSA', namedCurve: 'P-384' };
      const keys = await crypto.subtle.generateKey(params, true, ['sign', 'verify']);
      const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
      const header = headerText([x5cEntry(await f.leaf()), f.rootB64], { jwk });
      return signCompact(header, f.record.hash, keys.privateKey, ES384);
    },
    'jws_header',
  ],
  [
    'header members reordered',
    async () => {
      const cert = await f.leaf();
      const header = JSON.stringify({ x5c: [x5cEntry(cert), f.rootB64], alg: 'ES384' });
      return signCompact(header, f.record.hash, cert.privateKey, ES384);
    },
    'jws_header',
  ],
  [
    'header with whitespace',
    async () => {
      const cert = await f.leaf();
      const header = JSON.stringify({ alg: 'ES384', x5c: [x5cEntry(cert), f.rootB64] }, null, 1);
      return signCompact(header, f.record.hash, cert.privateKey, ES384);
    },
    'jws_header',
  ],
  [
    'one bit flipped in the header (ES384 becomes DS384)',
    async () => flipBit(f.record.signature, 0, 8, 0),
    'jws_alg',
  ],
  [
    'one bit flipped in the payload',
    async () => flipBit(f.record.signature, 1, 10, 2),
    'jws_payload',
  ],
  [
    'one bit flipped in the signature',
    async () => flipBit(f.record.signature, 2, 40, 3),
    'jws_signature',
  ],
  [
    'another hash as payload, validly signed by a leaf of the root',
    async () => {
      const cert = await f.leaf();
      const header = headerText([x5cEntry(cert), f.rootB64]);
      return signCompact(header, sha256Hex('other'), cert.privateKey, ES384);
    },
    'jws_payload',
  ],
  ['four segments', async () => `${f.record.signature}.x`, 'jws_format'],
  [
    'JWS JSON serialisation',
    async () => {
      const [protectedHeader, payload, signature] = f.record.signature.split('.');
      return JSON.stringify({ protected: protectedHeader, payload, signature });
    },
    'jws_format',
  ],
];

describe('negative signature vectors, JWS level: none is accepted', () => {
  test('the untouched signature verifies (control)', async () => {
    assert.equal((await f.verifyWith(f.record.signature)).ok, true);
  });

  test(`at least 20 vectors (${vectors.length})`, () => {
    assert.ok(vectors.length >= 20);
  });

  for (const [name, build, reason] of vectors) {
    test(name, async () => {
      const result = await f.verifyWith(await build());
      assert.equal(result.ok, false);
      assert.equal(result.firstBadIndex, 0);
      assert.equal(result.failedCheck, 'signature');
      assert.equal(result.reason, reason);
    });
  }
});
