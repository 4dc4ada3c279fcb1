/**
 * The issuer label `i` of a link: `"<display name> (<actor id>)"`, percent-encoded in the link
 * (SPEC.md §3). Encoding uses encodeURIComponent (a space becomes `%20`); decoding also takes `+`
 * as a space, as form encoding and many QR generators write it.
 */
import { MAX_ISSUER_LENGTH } from './limits.js';
import { LinkError } from './link-error.js';

// Raw `i` may hold the RFC 3986 fragment characters except `&` and `=` (the field separators,
// which must be percent-encoded) and `#`; `%` is checked for well-formedness by the decoder.
const RAW_ISSUER = /^[A-Za-z0-9\-._~!$'()*+,;:@/?%]+$/;

// Control characters would corrupt a displayed or logged label; lone surrogates have no UTF-8 form.
const FORBIDDEN_IN_LABEL = /[\p{Cc}\p{Cs}]/u;

/** Checks a decoded issuer label: 1 to MAX_ISSUER_LENGTH code units, no control characters. */
function checkIssuerLabel(label: string): string {
  if (label.length === 0 || label.length > MAX_ISSUER_LENGTH || FORBIDDEN_IN_LABEL.test(label)) {
    throw new LinkError('bad_issuer');
  }
  return label;
}

/** Builds the issuer label `"<display name> (<actor id>)"` (SPEC.md §3). */
export function formatIssuer(name: string, actorId: string): string {
  if (name.trim() === '' || actorId.trim() === '') throw new LinkError('bad_issuer');
  return checkIssuerLabel(`${name} (${actorId})`);
}

/** Percent-encodes an issuer label for the `i` field (spaces as `%20`). */
export function encodeIssuer(label: string): string {
  checkIssuerLabel(label);
  return encodeURIComponent(label);
}

/** Decodes the raw `i` field: `+` and `%20` become spaces; malformed encoding is refused. */
export function decodeIssuer(raw: string): string {
  if (!RAW_ISSUER.test(raw)) throw new LinkError('bad_issuer');
  let label: string;
  try {
    // `+` first, so that an encoded plus (`%2B`) survives as a literal `+`.
    label = decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    // URIError: a `%` not followed by two hex digits, or bytes that are not UTF-8.
    throw new LinkError('bad_issuer');
  }
  return checkIssuerLabel(label);
}
