/**
 * Reads the bearer token out of an `Authorization` header (SPEC.md §5, seed §5):
 * `Bearer acs:<token>` or `Bearer oauth:<token>`, or, as the HIN service takes it (SPEC.md §10),
 * a plain `Bearer <token>` with a `Token-Type: HIN_ACS | HIN_JWT | OAUTH` header.
 */
import { ErxError } from '../errors.js';
import { MAX_TOKEN_LENGTH } from './access-token.js';

// RFC 7235 §2.1: the scheme is case-insensitive; RFC 6750 §2.1: one or more spaces, then a
// b64token. The seed's `acs:` (and SPEC.md's `oauth:`) prefix is matched as written.
const CREDENTIALS = /^([A-Za-z]+) +(.*)$/s;
const PREFIXED_TOKEN = /^(?:acs|oauth):([A-Za-z0-9\-._~+/]+=*)$/;
const PLAIN_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** The `Token-Type` values that name a plain bearer token's kind (SPEC.md §10). */
const TOKEN_TYPES: ReadonlySet<string> = new Set(['HIN_ACS', 'HIN_JWT', 'OAUTH']);

function refuse(): ErxError {
  // causeCode as RFC 6750 §3.1 names it, so the HTTP layer can echo it in WWW-Authenticate.
  return new ErxError('unauthorized', 'The Authorization header does not carry a valid token.', {
    causeCode: 'invalid_token',
  });
}

/** The token of plain credentials when `tokenType` names a known kind of token. */
function plainToken(credentials: string, tokenType: string | string[] | undefined): string {
  if (typeof tokenType !== 'string' || !TOKEN_TYPES.has(tokenType.trim().toUpperCase())) {
    throw refuse();
  }
  if (!PLAIN_TOKEN.test(credentials)) throw refuse();
  return credentials;
}

/**
 * The token of an `Authorization` header (with the request's `Token-Type` header, if any):
 * `undefined` when there is no header, else the token without its prefix; throws `unauthorized`
 * for anything else (SPEC.md §5: no silent downgrade).
 */
export function parseBearer(
  header: string | undefined,
  tokenType?: string | string[],
): string | undefined {
  if (header === undefined) return undefined;
  if (header.length > MAX_TOKEN_LENGTH + 32) throw refuse();
  const [, scheme, credentials] = CREDENTIALS.exec(header) ?? [];
  if (scheme?.toLowerCase() !== 'bearer' || credentials === undefined) throw refuse();
  const token = PREFIXED_TOKEN.exec(credentials)?.[1] ?? plainToken(credentials, tokenType);
  if (token.length > MAX_TOKEN_LENGTH) throw refuse();
  return token;
}
