/**
 * Test support: certificates with chosen flaws (wrong curve, no `digitalSignature`, a CA leaf,
 * another issuer, odd validity), built with the same library as the real PKI.
 */
import type { webcrypto } from 'node:crypto';
import type { Credential } from '../../../src/pki/index.js';
import { x509 } from '../../../src/pki/index.js';

export type Curve = 'P-256' | 'P-384' | 'P-521';

const HASH_OF: Readonly<Record<Curve, string>> = {
  'P-256': 'SHA-256',
  'P-384': 'SHA-384',
  'P-521': 'SHA-512',
};

export interface CertificateSpec {
  subject: string;
  /** Issuer credential; absent means self-signed. */
  issuer?: Credential;
  curve?: Curve;
  notBefore: Date;
  notAfter: Date;
  /** Key usage flags; `null` leaves the extension out. Default `digitalSignature`. */
  keyUsage?: number | null;
  /** Basic constraints `cA`; `null` leaves the extension out. Default `false`. */
  ca?: boolean | null;
  /** Hash of the issuer's signature; default matches the issuer's curve. */
  signatureHash?: string;
  /** Adds a critical extension nobody understands. */
  unknownCriticalExtension?: boolean;
}

function curveOf(credential: Credential): Curve {
  return (credential.privateKey.algorithm as webcrypto.EcKeyAlgorithm).namedCurve as Curve;
}

/** Builds a certificate (and key) exactly as `spec` says. */
export async function makeCertificate(spec: CertificateSpec): Promise<Credential> {
  const curve = spec.curve ?? 'P-384';
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: curve }, true, [
    'sign',
    'verify',
  ]);
  const extensions: x509.Extension[] = [];
  const usage = spec.keyUsage === undefined ? x509.KeyUsageFlags.digitalSignature : spec.keyUsage;
  if (usage !== null) extensions.push(new x509.KeyUsagesExtension(usage, true));
  const ca = spec.ca === undefined ? false : spec.ca;
  if (ca !== null) extensions.push(new x509.BasicConstraintsExtension(ca, undefined, true));
  if (spec.unknownCriticalExtension === true) {
    extensions.push(new x509.Extension('1.3.6.1.4.1.55555.1', true, new Uint8Array([5, 0])));
  }
  const issuerCurve = spec.issuer === undefined ? curve : curveOf(spec.issuer);
  const hash = spec.signatureHash ?? HASH_OF[issuerCurve];
  const signingKey = spec.issuer?.privateKey ?? keys.privateKey;
  const certificate = await x509.X509CertificateGenerator.create({
    subject: spec.subject,
    issuer: spec.issuer?.certificate.subjectName ?? spec.subject,
    publicKey: keys.publicKey,
    signingKey,
    notBefore: spec.notBefore,
    notAfter: spec.notAfter,
    signingAlgorithm: { name: 'ECDSA', hash },
    extensions,
  });
  return { certificate, der: new Uint8Array(certificate.rawData), privateKey: keys.privateKey };
}

/** Standard base64 of a certificate's DER, as `x5c` carries it. */
export function x5cEntry(credential: Credential): string {
  return Buffer.from(credential.der).toString('base64');
}
