/**
 * The pinned root certificates a verifier trusts (SPEC.md §6 `logs_check_passed`: every x5c
 * chain must lead to the pinned root, byte for byte, not merely to some self-signed one).
 */
import type { webcrypto } from 'node:crypto';
import { P384_KEY } from './algorithms.js';
import { PkiError } from './pki-error.js';
import { x509 } from './x509.js';

/** One pinned root: its exact DER bytes and its public key, ready to verify leaf certificates. */
export interface PinnedRoot {
  readonly certificate: x509.X509Certificate;
  readonly der: Uint8Array;
  readonly publicKey: webcrypto.CryptoKey;
}

/** A certificate given as PEM text, DER bytes or an already parsed certificate. */
export type CertificateInput = string | Uint8Array | x509.X509Certificate;

function toCertificate(input: CertificateInput): x509.X509Certificate {
  if (input instanceof x509.X509Certificate) return input;
  try {
    return new x509.X509Certificate(input);
  } catch (error) {
    throw new PkiError('bad_certificate', error);
  }
}

/** An immutable set of pinned roots. */
export class TrustStore {
  readonly roots: readonly PinnedRoot[];

  private constructor(roots: readonly PinnedRoot[]) {
    this.roots = Object.freeze([...roots]);
  }

  /** Pins the given root certificates (P-384 keys only). */
  static async fromCertificates(inputs: readonly CertificateInput[]): Promise<TrustStore> {
    const roots: PinnedRoot[] = [];
    for (const input of inputs) {
      const certificate = toCertificate(input);
      let publicKey: webcrypto.CryptoKey;
      try {
        publicKey = await certificate.publicKey.export(P384_KEY, ['verify']);
      } catch (error) {
        throw new PkiError('not_p384', error);
      }
      roots.push({ certificate, der: new Uint8Array(certificate.rawData), publicKey });
    }
    return new TrustStore(roots);
  }

  /** The pinned root whose DER bytes equal `der` exactly, if any. */
  find(der: Uint8Array): PinnedRoot | undefined {
    const bytes = Buffer.from(der.buffer, der.byteOffset, der.byteLength);
    return this.roots.find((root) => bytes.equals(root.der));
  }

  /** A store without the root whose DER bytes equal `der` (for key rotation and tests). */
  without(der: Uint8Array): TrustStore {
    const bytes = Buffer.from(der.buffer, der.byteOffset, der.byteLength);
    return new TrustStore(this.roots.filter((root) => !bytes.equals(root.der)));
  }
}
