/**
 * Strict reading of a prescription link (SPEC.md §3, seed 4.2):
 * `{prescription_url}#CHMED16A1<data>&i=<issuer>&t=<unix seconds>&s=<hex signature>`, the
 * document part `CHMED23A.<data>` for a CHMED23A prescription.
 * The document part is opaque here: only its prefix is checked; `src/chmed16a` decodes it.
 */
import { decodeIssuer } from './issuer.js';
import { MAX_ISSUED_AT, MAX_LINK_LENGTH } from './limits.js';
import { LinkError } from './link-error.js';

/** A link split into its parts; `signedPart` is exactly the bytes the signature covers. */
export interface ParsedLink {
  /** Everything before `#`, e.g. `http://localhost:8080/rx/`. */
  readonly baseUrl: string;
  /** Everything after `#`. */
  readonly fragment: string;
  /** The `CHMED16A0…`/`CHMED16A1…`/`CHMED23A.…` document part, as it stands. */
  readonly chmed: string;
  /** The issuer label, percent-decoded. */
  readonly issuer: string;
  /** Issue time, unix seconds. */
  readonly issuedAt: number;
  /** The 128 lowercase hex digits of `s`. */
  readonly signatureHex: string;
  /** The fragment up to and excluding `&s=` (SPEC.md §3). */
  readonly signedPart: string;
}

// Anywhere in a link: control characters (a pasted link with an embedded newline is broken) and
// lone surrogates (they have no UTF-8 form, so two different strings would sign the same bytes).
const FORBIDDEN = /[\p{Cc}\p{Cs}]/u;

// A scheme, then anything without whitespace. The service compares the base with its configured
// prescription_url (SPEC.md §6); here only the form is checked.
const BASE_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

// ChTransmissionFormat, case-insensitive: CHMED16A version 0 (plain JSON) or 1 (gzip + base64),
// or CHMED23 with its sub-version and the dot before the data.
const CHMED_PREFIX = /^(?:chmed16a[01]|chmed23[a-z]+\.)/i;

// Plain decimal, no sign, exponent or leading zero (except "0"), at most ten digits.
const TIME = /^(?:0|[1-9][0-9]{0,9})$/;

// An Ed25519 signature is 64 bytes. Lowercase only (SPEC.md §3): one link has one spelling, so
// changing any character of `s` changes the link's meaning or makes it invalid.
const SIGNATURE = /^[0-9a-f]{128}$/;

// What is trimmed from both ends: ASCII whitespace (a trailing newline from `curl -d @file`, CRLF
// from a Windows editor, spaces from pasting) and a byte-order mark. Nothing else is trimmed.
const BLANK: ReadonlySet<string> = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\uFEFF']);

// A loop rather than a regex: `/\s+$/` is quadratic on long runs of inner whitespace.
function trimBlank(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && BLANK.has(text.charAt(start))) start++;
  while (end > start && BLANK.has(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/** Splits a link into its parts, refusing every malformed form with a {@link LinkError}. */
export function parseLink(input: string): ParsedLink {
  if (input.length > MAX_LINK_LENGTH) throw new LinkError('too_long');
  const link = trimBlank(input);
  if (link === '') throw new LinkError('empty');
  if (FORBIDDEN.test(link)) throw new LinkError('bad_character');

  const hash = link.indexOf('#');
  if (hash < 0) throw new LinkError('no_fragment');
  if (link.includes('#', hash + 1)) throw new LinkError('bad_fragment');
  const baseUrl = link.slice(0, hash);
  if (!BASE_URL.test(baseUrl)) throw new LinkError('bad_base_url');

  const fragment = link.slice(hash + 1);
  // At most five pieces: a fifth one already means a field too many.
  const fields = fragment.split('&', 5);
  const [chmed = '', rawIssuer, rawTime, rawSignature] = fields;
  const prefix = CHMED_PREFIX.exec(chmed);
  if (prefix === null) throw new LinkError('bad_prefix');
  if (chmed.length === prefix[0].length) throw new LinkError('bad_data');
  if (
    fields.length !== 4 ||
    !rawIssuer?.startsWith('i=') ||
    !rawTime?.startsWith('t=') ||
    !rawSignature?.startsWith('s=')
  ) {
    throw new LinkError('bad_field_order');
  }

  const issuer = decodeIssuer(rawIssuer.slice(2));
  const time = rawTime.slice(2);
  if (!TIME.test(time)) throw new LinkError('bad_time');
  const issuedAt = Number(time);
  if (issuedAt > MAX_ISSUED_AT) throw new LinkError('bad_time');
  const signatureHex = rawSignature.slice(2);
  if (!SIGNATURE.test(signatureHex)) throw new LinkError('bad_signature_format');

  const signedPart = fragment.slice(0, fragment.length - rawSignature.length - 1);
  return { baseUrl, fragment, chmed, issuer, issuedAt, signatureHex, signedPart };
}
