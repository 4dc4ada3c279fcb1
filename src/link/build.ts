/**
 * Writing a signed prescription link (SPEC.md §3):
 * `{prescription_url}#CHMED16A1<data>&i=<issuer>&t=<unix seconds>&s=<hex signature>`.
 */
import { encodeIssuer } from './issuer.js';
import { MAX_ISSUED_AT } from './limits.js';
import { LinkError } from './link-error.js';
import { parseLink } from './parse.js';

/** Something that signs link bytes with Ed25519, e.g. the `LinkKeyring`. */
export interface LinkSigner {
  /** Signs `data`; `at` (unix seconds) is the issue time the signature vouches for. */
  sign(data: Uint8Array, at?: number): Uint8Array;
}

/** What a link is built from. */
export interface BuildLinkInput {
  /** The configured `prescription_url`, e.g. `http://localhost:8080/rx/`. */
  readonly prescriptionUrl: string;
  /** The encoded document, `CHMED16A1…`. */
  readonly chmed: string;
  /** The issuer label, see `formatIssuer`. */
  readonly issuer: string;
  /** Issue time, unix seconds. */
  readonly issuedAt: number;
  readonly keyring: LinkSigner;
}

const ED25519_SIGNATURE_HEX_LENGTH = 128;
const PLACEHOLDER_SIGNATURE = '0'.repeat(ED25519_SIGNATURE_HEX_LENGTH);

/** Builds and signs a link; refuses, with a `LinkError`, anything `parseLink` would refuse. */
export function buildLink(input: BuildLinkInput): string {
  const { prescriptionUrl, chmed, issuer, issuedAt, keyring } = input;
  if (!Number.isSafeInteger(issuedAt) || issuedAt < 0 || issuedAt > MAX_ISSUED_AT) {
    throw new LinkError('bad_time');
  }
  // The signed part exactly as it will stand in the link (SPEC.md §3), `i` via encodeURIComponent.
  const signedPart = `${chmed}&i=${encodeIssuer(issuer)}&t=${issuedAt}`;
  // One set of rules decides what a link is: the unsigned link, with a placeholder of the
  // signature's length, must parse before anything is signed.
  const draft = parseLink(`${prescriptionUrl}#${signedPart}&s=${PLACEHOLDER_SIGNATURE}`);
  // parseLink trims the ends of a link: a base that needed trimming is not the configured one.
  if (draft.baseUrl !== prescriptionUrl) throw new LinkError('bad_base_url');

  const signature = Buffer.from(keyring.sign(Buffer.from(signedPart, 'utf8'), issuedAt));
  const hex = signature.toString('hex');
  if (hex.length !== ED25519_SIGNATURE_HEX_LENGTH)
    throw new Error('signer returned no Ed25519 signature');
  return `${prescriptionUrl}#${signedPart}&s=${hex}`;
}
