/**
 * A certificate with its private key, as the PKI holds it in memory and as storage keeps it
 * (PEM text). Private keys are imported non-extractable once loaded.
 */
import { KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import { P384_KEY, P384_NODE_CURVE } from './algorithms.js';
import { PkiError } from './pki-error.js';
import { x509 } from './x509.js';

/** A certificate and the private key of its subject. */
export interface Credential {
  readonly certificate: x509.X509Certificate;
  /** The certificate's DER bytes (what goes into `x5c`, base64). */
  readonly der: Uint8Array;
  readonly privateKey: webcrypto.CryptoKey;
}

/** A credential as storage keeps it. */
export interface StoredCredential {
  readonly certificatePem: string;
  /** PKCS#8 PEM (SEC1 `EC PRIVATE KEY` is accepted on load). */
  readonly privateKeyPem: string;
}

function parseCertificate(pem: string): x509.X509Certificate {
  try {
    return new x509.X509Certificate(pem);
  } catch (error) {
    throw new PkiError('bad_certificate', error);
  }
}

function parsePrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new PkiError('bad_private_key', error);
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== P384_NODE_CURVE) {
    throw new PkiError('not_p384');
  }
  return key;
}

/** Loads a stored credential, refusing keys that are not P-384 or do not match the certificate. */
export async function credentialFromPem(stored: StoredCredential): Promise<Credential> {
  const certificate = parseCertificate(stored.certificatePem);
  const keyObject = parsePrivateKey(stored.privateKeyPem);
  const spki = createPublicKey(keyObject).export({ type: 'spki', format: 'der' });
  if (!spki.equals(Buffer.from(certificate.publicKey.rawData))) {
    throw new PkiError('key_mismatch');
  }
  const pkcs8 = keyObject.export({ type: 'pkcs8', format: 'der' });
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, P384_KEY, false, ['sign']);
  return { certificate, der: new Uint8Array(certificate.rawData), privateKey };
}

/** The PEM form of a freshly generated credential (its private key must be extractable). */
export function credentialToPem(credential: Credential): StoredCredential {
  return {
    certificatePem: credential.certificate.toString('pem'),
    privateKeyPem: KeyObject.from(credential.privateKey)
      .export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };
}
