// Runs the link vectors in test/vectors/link (STYLE.md point 7): parse cases and signed builds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLink } from './build.js';
import { formatIssuer } from './issuer.js';
import { LinkError } from './link-error.js';
import type { LinkErrorReason } from './link-error.js';
import { parseLink } from './parse.js';
import type { ParsedLink } from './parse.js';
import { verifyLinkSignature } from './verify.js';

const FOLDER = join(import.meta.dirname, '..', '..', 'test', 'vectors', 'link');

interface Vector<I, E> {
  name: string;
  source: string;
  input: I;
  expected: E;
}

type ParseExpected = { parsed: ParsedLink } | { error: LinkErrorReason };

interface BuildInput {
  prescriptionUrl: string;
  chmed: string;
  issuerName: string;
  actorId: string;
  issuedAt: number;
  privateKeyHex: string;
  publicKeyHex: string;
}

interface BuildExpected {
  issuer: string;
  signedPart: string;
  link: string;
}

// Every vector file of one kind; an empty folder or kind fails instead of running nothing.
function load<I, E>(kind: string): Vector<I, E>[] {
  const files = readdirSync(FOLDER).filter((name) => name.endsWith('.json'));
  assert.ok(files.length > 0, `no vector files in ${FOLDER}`);
  const vectors = files.flatMap((name) => {
    const file = JSON.parse(readFileSync(join(FOLDER, name), 'utf8')) as {
      kind: string;
      vectors: Vector<I, E>[];
    };
    return file.kind === kind ? file.vectors : [];
  });
  assert.ok(vectors.length > 0, `no "${kind}" vectors in ${FOLDER}`);
  for (const vector of vectors) {
    assert.ok(
      vector.name && vector.source,
      `vector without name or source: ${JSON.stringify(vector)}`,
    );
  }
  return vectors;
}

// RFC 8037 key import from the raw hex of RFC 8032.
function jwk(publicKeyHex: string, privateKeyHex?: string): JsonWebKey {
  const x = Buffer.from(publicKeyHex, 'hex').toString('base64url');
  if (privateKeyHex === undefined) return { kty: 'OKP', crv: 'Ed25519', x };
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x,
    d: Buffer.from(privateKeyHex, 'hex').toString('base64url'),
  };
}

describe('parse vectors', () => {
  for (const vector of load<string, ParseExpected>('parse')) {
    test(vector.name, () => {
      if ('parsed' in vector.expected) {
        assert.deepEqual(parseLink(vector.input), vector.expected.parsed);
      } else {
        const reason = vector.expected.error;
        assert.throws(
          () => parseLink(vector.input),
          (error: unknown) =>
            error instanceof LinkError && error.reason === reason && error.code === 'bad_request',
        );
      }
    });
  }
});

describe('build vectors', () => {
  for (const vector of load<BuildInput, BuildExpected>('build')) {
    const { input, expected } = vector;
    test(vector.name, () => {
      const privateKey = createPrivateKey({
        key: jwk(input.publicKeyHex, input.privateKeyHex),
        format: 'jwk',
      });
      const publicKey = createPublicKey({ key: jwk(input.publicKeyHex), format: 'jwk' });
      // The vector's key pair must be consistent, or the vector proves nothing.
      assert.deepEqual(
        createPublicKey(privateKey).export({ format: 'jwk' }),
        publicKey.export({ format: 'jwk' }),
      );
      const signer = { sign: (data: Uint8Array) => sign(null, data, privateKey) };

      const issuer = formatIssuer(input.issuerName, input.actorId);
      assert.equal(issuer, expected.issuer);
      const link = buildLink({ ...input, issuer, keyring: signer });
      assert.equal(link, expected.link);

      const parsed = parseLink(link);
      assert.equal(parsed.signedPart, expected.signedPart);
      assert.equal(parsed.issuer, expected.issuer);
      assert.equal(verifyLinkSignature(parsed, { keysCurrentAt: () => [publicKey] }), true);
    });
  }
});
