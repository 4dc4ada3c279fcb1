/**
 * Links erx did not issue (SPEC.md §3 "Links erx did not issue"): a CHMED16A document after `#`
 * whose other fields are not erx's `i`, `t` and `s`, or whose `s` is not the 128 hex digits of an
 * Ed25519 signature. HIN's links carry a field of their own and a 130-hex `s`
 * (`https://eprescription.hin.ch/#CHMED16A1…&<field>&i=…&t=…&s=<130 hex>`); older ones carry a
 * signature segment alone (`https://eRx.ch/#CHMED16A1…&<signature>`). erx reads their document
 * and names their host; it cannot verify them. The web page reads links with this module too.
 */
import { ErxError } from '../errors.js';
import { decodeIssuer } from './issuer.js';
import { MAX_LINK_LENGTH } from './limits.js';

/** A well-formed link of another issuer, split into what erx can show of it. */
export interface ForeignLink {
  /** Everything before `#`, as written. */
  readonly baseUrl: string;
  /** The host of {@link baseUrl} (lower case, with a port if one is written): who issued it. */
  readonly host: string;
  /** The `CHMED16A0…`/`CHMED16A1…` document part, as it stands. */
  readonly chmed: string;
  /** The issuer label `i`, percent-decoded, when the link has a readable one. */
  readonly issuer: string | undefined;
  /** The issue time `t` (unix seconds), when the link has a readable one. */
  readonly issuedAt: number | undefined;
}

// The document part: the ChTransmissionFormat prefix (case-insensitive) and at least one more.
const DOCUMENT = /^(?:chmed16a[01]|chmed23[a-z]+\.)./is;

// `s` in erx's form: the 64 bytes of an Ed25519 signature, hex (any case: a link in erx's form
// with upper-case digits is erx's malformed link, refused as such by `parseLink`).
const SIGNATURE = /^[0-9a-f]{128}$/i;

// Unix seconds, as erx writes them (`parseLink` is stricter for erx's own links).
const TIME = /^[0-9]{1,10}$/;

// A DNS name is at most 253 characters; a port adds at most 6.
const MAX_HOST_LENGTH = 259;

/** The value of field `name` (`name=value`), if the fields hold exactly one. */
function fieldValue(fields: readonly string[], name: string): string | undefined {
  const found = fields.filter((f) => f.startsWith(`${name}=`));
  return found.length === 1 ? found[0]!.slice(name.length + 1) : undefined;
}

/** True when `fields` (those after the document) are erx's `i`, `t` and `s` with a 128-hex `s`. */
function inErxForm(fields: readonly string[]): boolean {
  if (fields.length !== 3) return false;
  const names = fields.map((f) => (f.includes('=') ? f.slice(0, f.indexOf('=')) : f)).sort();
  if (names.join('&') !== 'i&s&t') return false;
  const signature = fieldValue(fields, 's');
  return signature !== undefined && SIGNATURE.test(signature);
}

function issuerOf(fields: readonly string[]): string | undefined {
  const raw = fieldValue(fields, 'i');
  if (raw === undefined) return undefined;
  try {
    return decodeIssuer(raw);
  } catch {
    return undefined;
  }
}

function issuedAtOf(fields: readonly string[]): number | undefined {
  const raw = fieldValue(fields, 't');
  return raw !== undefined && TIME.test(raw) ? Number(raw) : undefined;
}

/**
 * Reads `input` as a link another service issued; undefined when it is not a link with a CHMED16A
 * document after `#` and a host before it, or when it is in erx's form (then `parseLink` reads
 * it, and a forged one is answered as a forged erx link). The document is not decoded here.
 */
export function readForeignLink(input: string): ForeignLink | undefined {
  if (input.length > MAX_LINK_LENGTH) return undefined;
  const link = input.trim();
  const hash = link.indexOf('#');
  if (hash < 0) return undefined;
  const [chmed = '', ...fields] = link.slice(hash + 1).split('&');
  if (!DOCUMENT.test(chmed) || inErxForm(fields)) return undefined;
  const baseUrl = link.slice(0, hash);
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    return undefined;
  }
  if (host === '' || host.length > MAX_HOST_LENGTH) return undefined;
  return { baseUrl, host, chmed, issuer: issuerOf(fields), issuedAt: issuedAtOf(fields) };
}

/**
 * A link erx did not issue, at verify or status (SPEC.md §3): 400 `foreign_link`, naming the
 * host in the message and as `params.host`, so that the counter can say who issued it.
 */
export class ForeignLinkError extends ErxError {
  /** The host of the link's address. */
  readonly host: string;

  constructor(host: string) {
    super(
      'bad_request',
      `The prescription link was issued by ${host}, not by this service: it cannot be verified here.`,
      { causeCode: 'foreign_link', params: { host } },
    );
    this.host = host;
  }
}
