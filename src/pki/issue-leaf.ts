/**
 * Short-lived leaf certificates (SPEC.md §7): P-384, `digitalSignature` only, not a CA,
 * issued by the root. Event signatures are made with leaf keys, never with the root key.
 */
import { CERT_SIGNING_ALGORITHM, P384_KEY } from './algorithms.js';
import type { Credential } from './credential.js';
import { x509 } from './x509.js';

/** Default leaf lifetime: 24 hours (SPEC.md §7). */
export const LEAF_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * How far a new leaf's `notBefore` is set back, so a leaf created by one instance is already
 * valid on another whose clock is a little behind (instances share keys, SPEC.md §1 operators).
 */
const LEAF_BACKDATE_MS = 5 * 60 * 1000;

export interface IssueLeafOptions {
  /** The time the leaf is first needed; validity starts {@link LEAF_BACKDATE_MS} earlier. */
  at: Date;
  lifetimeMs?: number;
}

/** Issues a fresh leaf certificate under `root`; its private key is extractable once, for storage. */
export async function issueLeaf(root: Credential, options: IssueLeafOptions): Promise<Credential> {
  const notBefore = new Date(options.at.getTime() - LEAF_BACKDATE_MS);
  const notAfter = new Date(options.at.getTime() + (options.lifetimeMs ?? LEAF_LIFETIME_MS));
  const keys = await crypto.subtle.generateKey(P384_KEY, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create({
    subject: `CN=erx ledger signer ${notBefore.toISOString()}`,
    issuer: root.certificate.subjectName,
    publicKey: keys.publicKey,
    signingKey: root.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: CERT_SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root.certificate.publicKey),
    ],
  });
  return { certificate, der: new Uint8Array(certificate.rawData), privateKey: keys.privateKey };
}
