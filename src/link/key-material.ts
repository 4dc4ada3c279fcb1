/**
 * Ed25519 key material of the link key ring: generation, identifiers and import. Keys are kept
 * as the base64url members of their JWK (RFC 8037): `x` the public key, `d` the private key.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';

/** One key of the ring as stored; `privateKey` only while the key is current. */
export interface KeyRecord {
  /** RFC 7638 JWK thumbprint of the public key (base64url SHA-256). */
  readonly kid: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** Unix seconds; null while the key is current. */
  readonly retiredAt: number | null;
  /** JWK `x`: the 32-byte public key, base64url. */
  readonly publicKey: string;
  /** JWK `d`: the 32-byte private key, base64url; removed when the key is retired. */
  readonly privateKey?: string;
}

/** The public JWK of an Ed25519 key, with the members a JWKS consumer expects. */
export interface Ed25519PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly kid: string;
  readonly alg: 'EdDSA';
  readonly use: 'sig';
}

/** RFC 7638 thumbprint of an Ed25519 public key given as its JWK `x`. */
export function thumbprint(x: string): string {
  // RFC 7638 §3.2: the required members in lexicographic order without whitespace, which is what
  // RFC 8785 canonical JSON of exactly those members gives.
  const members = canonicalize({ crv: 'Ed25519', kty: 'OKP', x }) ?? '';
  return createHash('sha256').update(members, 'utf8').digest('base64url');
}

/** Lowercase hex SHA-256 of the raw 32-byte public key, for operators comparing keys by eye. */
export function fingerprint(x: string): string {
  return createHash('sha256').update(Buffer.from(x, 'base64url')).digest('hex');
}

/** Creates a fresh current key created at `createdAt`. */
export function generateKeyRecord(createdAt: number): KeyRecord {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string' || typeof jwk.d !== 'string') {
    throw new Error('Ed25519 key export lacks x or d');
  }
  return {
    kid: thumbprint(jwk.x),
    createdAt,
    retiredAt: null,
    publicKey: jwk.x,
    privateKey: jwk.d,
  };
}

/** Imports a public key from its JWK `x`. */
export function importPublicKey(x: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

/** Imports a private key from its JWK `d`, refusing one that does not belong to `x`. */
export function importPrivateKey(x: string, d: string): KeyObject {
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x, d }, format: 'jwk' });
  // Node derives the public half from `d` and ignores `x`: compare them ourselves.
  if (createPublicKey(key).export({ format: 'jwk' }).x !== x) {
    throw new Error('private key does not match its public key');
  }
  return key;
}

/** The public JWK of a key record. */
export function publicJwk(record: KeyRecord): Ed25519PublicJwk {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: record.publicKey,
    kid: record.kid,
    alg: 'EdDSA',
    use: 'sig',
  };
}

/** The SPKI PEM of a public key given as its JWK `x`. */
export function publicPem(x: string): string {
  return importPublicKey(x).export({ format: 'pem', type: 'spki' }).toString();
}
