/**
 * Validation of a leaf certificate against a pinned root (SPEC.md §7: jose does not validate
 * `x5c`, erx does): issued and signed by the root, allowed to sign, not a CA, P-384. The
 * validity window is checked separately, per event, at the event's own time.
 */
import { KeyObject } from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import { P384_KEY } from './algorithms.js';
import type { PinnedRoot } from './trust-store.js';
import { x509 } from './x509.js';

/** Why a certificate chain was refused. */
export type CertificateFailureReason =
  | 'x5c_format'
  | 'untrusted_root'
  | 'leaf_unparseable'
  | 'leaf_signature_algorithm'
  | 'leaf_not_issued_by_root'
  | 'leaf_critical_extension'
  | 'leaf_key_usage'
  | 'leaf_is_ca'
  | 'leaf_key_type'
  | 'leaf_not_yet_valid'
  | 'leaf_expired';

/** A leaf that passed every time-independent check. */
export interface ValidatedLeaf {
  /** Its P-384 public key. */
  readonly publicKey: KeyObject;
  /** Validity window, unix milliseconds, both ends inclusive (RFC 5280 §4.1.2.5). */
  readonly notBeforeMs: number;
  readonly notAfterMs: number;
}

export type LeafValidation =
  | { readonly ok: true; readonly leaf: ValidatedLeaf }
  | { readonly ok: false; readonly reason: CertificateFailureReason };

/** The shape of `signatureAlgorithm` (the library types it with DOM names this project omits). */
interface WebAlgorithm {
  name?: unknown;
  hash?: { name?: unknown };
}

/** Critical extensions a leaf may carry; any other critical one is refused (RFC 5280 §4.2). */
const UNDERSTOOD_CRITICAL: ReadonlySet<string> = new Set(['2.5.29.15', '2.5.29.19']);

function bytesEqual(a: ArrayBuffer, b: ArrayBuffer): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function fail(reason: CertificateFailureReason): LeafValidation {
  return { ok: false, reason };
}

async function signedBy(leaf: x509.X509Certificate, root: PinnedRoot): Promise<boolean> {
  try {
    return await leaf.verify({ publicKey: root.publicKey, signatureOnly: true });
  } catch {
    return false;
  }
}

/** Checks `leafDer` against `root`; performs exactly one public-key operation when it gets that far. */
export async function validateLeaf(leafDer: Uint8Array, root: PinnedRoot): Promise<LeafValidation> {
  let leaf: x509.X509Certificate;
  try {
    leaf = new x509.X509Certificate(leafDer);
  } catch {
    return fail('leaf_unparseable');
  }
  const algorithm = leaf.signatureAlgorithm as unknown as WebAlgorithm;
  if (algorithm.name !== 'ECDSA' || algorithm.hash?.name !== 'SHA-384') {
    return fail('leaf_signature_algorithm');
  }
  if (!bytesEqual(leaf.issuerName.toArrayBuffer(), root.certificate.subjectName.toArrayBuffer())) {
    return fail('leaf_not_issued_by_root');
  }
  if (leaf.extensions.some((e) => e.critical && !UNDERSTOOD_CRITICAL.has(e.type))) {
    return fail('leaf_critical_extension');
  }
  const usage = leaf.getExtension(x509.KeyUsagesExtension);
  if (usage === null || (usage.usages & x509.KeyUsageFlags.digitalSignature) === 0) {
    return fail('leaf_key_usage');
  }
  if (leaf.getExtension(x509.BasicConstraintsExtension)?.ca === true) return fail('leaf_is_ca');
  let publicKey: webcrypto.CryptoKey;
  try {
    publicKey = await leaf.publicKey.export(P384_KEY, ['verify']);
  } catch {
    return fail('leaf_key_type');
  }
  if (!(await signedBy(leaf, root))) return fail('leaf_not_issued_by_root');
  return {
    ok: true,
    leaf: {
      publicKey: KeyObject.from(publicKey),
      notBeforeMs: leaf.notBefore.getTime(),
      notAfterMs: leaf.notAfter.getTime(),
    },
  };
}

/** Whether `leaf` is valid at `epochNanos` (nanoseconds since the epoch, from the event time). */
export function leafValidAt(
  leaf: ValidatedLeaf,
  epochNanos: bigint,
): CertificateFailureReason | undefined {
  if (epochNanos < BigInt(leaf.notBeforeMs) * 1_000_000n) return 'leaf_not_yet_valid';
  if (epochNanos > BigInt(leaf.notAfterMs) * 1_000_000n) return 'leaf_expired';
  return undefined;
}
