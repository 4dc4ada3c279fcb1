/**
 * Splits a prescription link into what the page shows (SPEC.md §3):
 * `{prescription_url}#CHMED16A1<data>&i=<issuer>&t=<unix s>&s=<hex>`. The service does the
 * strict parse and the signature check on verify; this only finds the parts to display.
 */

export interface LinkParts {
  /** Everything before `#`. */
  readonly base: string;
  /** The `CHMED16A0…`/`CHMED16A1…`/`CHMED23A.…` part. */
  readonly chmed: string;
  /** The issuer label, percent-decoded (`+` is a space). */
  readonly issuer: string;
  /** Issue time, unix seconds. */
  readonly issuedAt: number;
}

/** Thrown for text that is not a prescription link. */
export class LinkFormatError extends Error {
  constructor() {
    super('not a prescription link');
    this.name = 'LinkFormatError';
  }
}

function field(fields: readonly string[], name: string): string {
  const found = fields.find((f) => f.startsWith(`${name}=`));
  if (found === undefined) throw new LinkFormatError();
  return found.slice(name.length + 1);
}

/** The parts of `link`; {@link LinkFormatError} when it has no CHMED fragment. */
export function splitLink(link: string): LinkParts {
  const text = link.trim();
  const hash = text.indexOf('#');
  if (hash < 0) throw new LinkFormatError();
  const [chmed = '', ...rest] = text.slice(hash + 1).split('&');
  if (!/^(?:chmed16a[01]|chmed23[a-z]+\.)./i.test(chmed)) throw new LinkFormatError();
  let issuer: string;
  try {
    issuer = decodeURIComponent(field(rest, 'i').replaceAll('+', ' '));
  } catch {
    throw new LinkFormatError();
  }
  const time = Number(field(rest, 't'));
  if (!Number.isSafeInteger(time)) throw new LinkFormatError();
  return { base: text.slice(0, hash), chmed, issuer, issuedAt: time };
}

/** True when `text` looks like a prescription link (for pasted or scanned text). */
export function looksLikeLink(text: string): boolean {
  try {
    splitLink(text);
    return true;
  } catch {
    return false;
  }
}
