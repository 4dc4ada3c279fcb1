/**
 * The service's own root CA (SPEC.md §7): P-384, self-signed, long-lived; it certifies the
 * short-lived leaves and is the only thing a verifier pins.
 */
import type { webcrypto } from 'node:crypto';
import { CERT_SIGNING_ALGORITHM, P384_KEY } from './algorithms.js';
import type { Credential } from './credential.js';
import { PkiError } from './pki-error.js';
import { x509 } from './x509.js';

/** Default root lifetime: 20 years, long enough that rotation is a planned event. */
const ROOT_LIFETIME_YEARS = 20;

export interface CreateRootOptions {
  /** Start of validity (default: now). */
  now?: Date;
  lifetimeYears?: number;
  /** Distinguished name (default `CN=erx ledger root CA`). */
  subject?: string;
}

/** Generates a new root CA; its private key is extractable once, so it can be stored. */
export async function createRootCa(options: CreateRootOptions = {}): Promise<Credential> {
  const notBefore = options.now ?? new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(
    notAfter.getUTCFullYear() + (options.lifetimeYears ?? ROOT_LIFETIME_YEARS),
  );
  const keys = await crypto.subtle.generateKey(P384_KEY, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: options.subject ?? 'CN=erx ledger root CA',
    keys,
    notBefore,
    notAfter,
    signingAlgorithm: CERT_SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, der: new Uint8Array(certificate.rawData), privateKey: keys.privateKey };
}

/** Throws unless `certificate` is a P-384 CA allowed to sign certificates (operator-given roots). */
export function assertRootUsable(certificate: x509.X509Certificate): void {
  const algorithm = certificate.publicKey.algorithm as unknown as webcrypto.EcKeyAlgorithm;
  if (algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-384') {
    throw new PkiError('not_p384');
  }
  const constraints = certificate.getExtension(x509.BasicConstraintsExtension);
  const usage = certificate.getExtension(x509.KeyUsagesExtension);
  const canSign = usage === null || (usage.usages & x509.KeyUsageFlags.keyCertSign) !== 0;
  if (constraints === null || !constraints.ca || !canSign) throw new PkiError('not_a_ca');
}
