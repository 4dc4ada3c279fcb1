/**
 * Signing in with client credentials (SPEC.md §5 token service). The token lives in memory only:
 * never in storage, so closing or reloading the page signs out. The secret is used for the two
 * calls below and then dropped.
 */
import { callJson } from './http.js';
import type { TokenIdentity, TokenInfo, TokenResult } from './types.js';

/** The client's role, as the token check names it. */
export type Role = NonNullable<TokenIdentity['scope']>;

export interface Session {
  readonly token: string;
  /** The client's display name, when the token check told it. */
  readonly name: string | undefined;
  /** The actor id events carry (`sub`), to recognise one's own events. */
  readonly sub: string | undefined;
  readonly role: Role | undefined;
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

const FORM = 'application/x-www-form-urlencoded';

/** Gets a token for the client and asks the token check who it belongs to. */
export async function signIn(clientId: string, secret: string): Promise<Session> {
  const { access_token: token } = await callJson<TokenResult>('/REST/v1/OAuth/token', {
    body: form({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
    contentType: FORM,
  });
  // The identity only labels the screen and finds one's own events; the service decides.
  let identity: TokenIdentity = {};
  try {
    const info = await callJson<TokenInfo>('/REST/v1/OAuth/GetTokenInfo', {
      body: form({ token, client_id: clientId, client_secret: secret }),
      contentType: FORM,
    });
    if (info.active) identity = info;
  } catch {
    // Without the check (e.g. an external token service) the screen just shows no name.
  }
  return { token, name: identity.name, sub: identity.sub, role: identity.scope };
}
