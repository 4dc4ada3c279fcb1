/**
 * Client authentication at the token endpoint (SPEC.md §5: "client credentials in the form or
 * HTTP Basic"): RFC 6749 §2.3.1 Basic credentials, whose id and secret are each
 * form-urlencoded before they are joined with `:` and base64-encoded.
 */
import { ErxError } from '../errors.js';

/** A client id and secret, as presented by a caller. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const BASIC = /^([A-Za-z]+) +([A-Za-z0-9+/]+={0,2})$/;
const MAX_BASIC_LENGTH = 2048;

function invalidClient(): ErxError {
  return new ErxError('unauthorized', 'Client authentication failed.', {
    causeCode: 'invalid_client',
  });
}

function formDecode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw invalidClient();
  }
}

function formEncode(part: string): string {
  return encodeURIComponent(part).replace(/%20/g, '+');
}

/**
 * The credentials of an `Authorization: Basic` header; `undefined` when the header is absent or
 * of another scheme; throws `unauthorized` (`invalid_client`) when it is Basic but malformed.
 */
export function parseBasicCredentials(header: string | undefined): ClientCredentials | undefined {
  if (header === undefined) return undefined;
  const scheme = /^[A-Za-z]+/.exec(header)?.[0];
  if (scheme?.toLowerCase() !== 'basic') return undefined;
  const encoded = header.length <= MAX_BASIC_LENGTH ? BASIC.exec(header)?.[2] : undefined;
  if (encoded === undefined || encoded.length % 4 !== 0) throw invalidClient();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient();
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

/** The `Authorization: Basic` header value for a client (RFC 6749 §2.3.1, RFC 7662 §2.1). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const pair = `${formEncode(clientId)}:${formEncode(clientSecret)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/** What a token request carries that may authenticate the client. */
export interface PresentedCredentials {
  /** The request's `Authorization` header. */
  authorization: string | undefined;
  /** Form field `client_id`. */
  clientId: string | undefined;
  /** Form field `client_secret`. */
  clientSecret: string | undefined;
}

/**
 * The client credentials of a token request, from HTTP Basic or else the form; both methods at
 * once is `bad_request` (`invalid_request`), since RFC 6749 §2.3 allows only one per request.
 */
export function pickClientCredentials(presented: PresentedCredentials): Partial<ClientCredentials> {
  const basic = parseBasicCredentials(presented.authorization);
  if (basic === undefined) {
    return { clientId: presented.clientId, clientSecret: presented.clientSecret };
  }
  const formIdDiffers = presented.clientId !== undefined && presented.clientId !== basic.clientId;
  if (presented.clientSecret !== undefined || formIdDiffers) {
    throw new ErxError('bad_request', 'Use one client authentication method per request.', {
      causeCode: 'invalid_request',
    });
  }
  return basic;
}
