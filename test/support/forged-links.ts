/**
 * Links altered the way a forger would (SPEC.md §3): the document changed under the issuer's
 * `&i&t&s`, or one digit of the signature changed. The counter's and the verify suites' forgeries.
 */
import { decodeChmed, encodeChmed } from '../../src/chmed16a/index.js';

/** A decoded CHMED16A document, as a forgery changes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

/** `link` split at its fields: `<base>#<chmed>&i=…&t=…&s=<signature>`. */
function linkParts(link: string): { base: string; chmed: string; it: string; signature: string } {
  const hash = link.indexOf('#');
  const issuer = link.indexOf('&i=');
  const signature = link.lastIndexOf('&s=');
  return {
    base: link.slice(0, hash),
    chmed: link.slice(hash + 1, issuer),
    it: link.slice(issuer, signature),
    signature: link.slice(signature + 3),
  };
}

/**
 * `link` with its document re-encoded after `change`, issuer, time and signature kept: a forged
 * link whose signature no longer covers its content.
 */
export function withChangedContent(link: string, change: (doc: Doc) => Doc): string {
  const { base, chmed, it, signature } = linkParts(link);
  return `${base}#${encodeChmed(change(decodeChmed(chmed) as Doc))}${it}&s=${signature}`;
}

/** `link` with one hex digit of its signature changed, its content kept. */
export function withChangedSignature(link: string): string {
  const { base, chmed, it, signature } = linkParts(link);
  const last = signature.at(-1) === '0' ? '1' : '0';
  return `${base}#${chmed}${it}&s=${signature.slice(0, -1)}${last}`;
}
