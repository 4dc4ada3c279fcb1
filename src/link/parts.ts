/**
 * One signed CHMED23A link over several QR codes (docs/decisions.md "One signed link over several
 * QR codes"). The link in one piece is `{url}#CHMED23A.<data>&i=…&t=…&s=…`, its signature over
 * `CHMED23A.<data>&i=…&t=…` as for every link. Part k of n is the same link with the document
 * part replaced by the k-th ChTransmissionFormat part, `CHMED23A.k/n.<slice>`, and the same `i`,
 * `t` and `s`: each part is a link in erx's form on its own (a phone opens the patient view with
 * it), and the parts joined give back the link in one piece, whose signature verifies. Read by
 * the service and by the web page.
 */
import { MAX_ENCODED_DATA_LENGTH } from '../chmed16a/limits.js';
import { assembleParts } from '../chmed23a/assemble.js';
import { PartsError } from '../chmed23a/parts-error.js';
import { MAX_PARTS, isChmed23, readPart, wholeString } from '../chmed23a/transmission.js';
import { parseLink } from './parse.js';
import type { ParsedLink } from './parse.js';

/** `&i=…&t=…`: what follows the document part in the signed part of `link`. */
function fieldsOf(link: ParsedLink): string {
  return link.signedPart.slice(link.chmed.length);
}

/** True when the document part of `link` is a numbered CHMED23 part (`CHMED23A.2/3.…`). */
export function isPartLink(link: ParsedLink): boolean {
  return isChmed23(link.chmed) && readPart(link.chmed).index !== undefined;
}

/** True when `text` is a link whose document part is a numbered part (read alone, it is missing its others). */
function isOnePart(text: string): boolean {
  try {
    return isPartLink(parseLink(text));
  } catch {
    return false;
  }
}

/** True when `length` characters cut into `count` equal slices (the last shorter) leave none empty. */
function splits(length: number, count: number): boolean {
  return count <= MAX_PARTS && Math.ceil(length / count) * (count - 1) < length;
}

/**
 * `link` (a CHMED23A link in one piece) as `count` part links, in order. Every slice holds at
 * least one character of the data.
 */
export function splitIntoPartLinks(link: string, count: number): string[] {
  const parsed = parseLink(link);
  const whole = readPart(parsed.chmed);
  if (whole.index !== undefined || !Number.isInteger(count) || count < 1) {
    throw new RangeError('only a CHMED23A link in one piece is split, into 1 part or more');
  }
  const size = Math.ceil(whole.data.length / count);
  if (!splits(whole.data.length, count)) {
    throw new RangeError(`a document of ${whole.data.length} characters has no ${count} parts`);
  }
  const after = `${fieldsOf(parsed)}&s=${parsed.signatureHex}`;
  return Array.from({ length: count }, (_, i) => {
    const slice = whole.data.slice(i * size, (i + 1) * size);
    return `${parsed.baseUrl}#CHMED23${whole.subVersion}.${i + 1}/${count}.${slice}${after}`;
  });
}

/**
 * `link` as few part links as each `fits` (one QR code): `[link]` when it fits whole, undefined
 * when no split of at most {@link MAX_PARTS} parts fits. Only CHMED23A links are split.
 */
export function partLinksToFit(
  link: string,
  fits: (text: string) => boolean,
): string[] | undefined {
  if (fits(link)) return [link];
  const parsed = parseLink(link);
  if (!isChmed23(parsed.chmed)) return undefined;
  const length = readPart(parsed.chmed).data.length;
  for (let count = 2; count <= Math.min(MAX_PARTS, length); count++) {
    if (!splits(length, count)) continue;
    const parts = splitIntoPartLinks(link, count);
    if (parts.every(fits)) return parts;
  }
  return undefined;
}

/**
 * The link in one piece that `links` (one link, or the part links of one, in any order) make.
 * Throws `LinkError` for a text that is not a link, `PartsError` for parts that do not make one
 * link (missing, given twice, of different links), `DocumentDecodeError` (`too_large`) for parts
 * whose data together exceed what a link may carry.
 */
export function joinPartLinks(links: readonly string[]): string {
  if (links.length === 1 && !isOnePart(links[0]!)) return links[0]!;
  if (links.length > MAX_PARTS) throw PartsError.tooMany(MAX_PARTS);
  const parsed = links.map(parseLink);
  if (!parsed.every((p) => isChmed23(p.chmed))) throw PartsError.mixed();
  const first = parsed[0]!;
  const same = (p: ParsedLink): boolean =>
    p.baseUrl === first.baseUrl &&
    fieldsOf(p) === fieldsOf(first) &&
    p.signatureHex === first.signatureHex;
  const assembled = assembleParts(
    parsed.map((p) => p.chmed),
    MAX_ENCODED_DATA_LENGTH,
  );
  if (!parsed.every(same)) throw PartsError.differentLinks();
  const chmed = wholeString(assembled.subVersion, assembled.data);
  return `${first.baseUrl}#${chmed}${fieldsOf(first)}&s=${first.signatureHex}`;
}
