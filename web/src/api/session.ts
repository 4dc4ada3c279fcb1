/**
 * Signing in with client credentials (SPEC.md §5 token service). The token lives in memory only:
 * never in storage, so closing or reloading the page signs out. The secret is used for the two
 * calls below and then dropped. When the token expires, the screen renews it in place
 * ({@link SessionToken}): the person signs the same client in again and nothing on the screen
 * is lost.
 */
import { callJson } from './http.js';
import type { RenewableToken, Token } from './http.js';
import type { TokenIdentity, TokenInfo, TokenResult } from './types.js';

/** The client's role, as the token check names it. */
export type Role = NonNullable<TokenIdentity['scope']>;

export interface Session {
  /** What the calls send: fixed as signed in, renewable once the screen holds the session. */
  readonly token: Token;
  /** The client signed in, to sign the same one in again when the token expires. */
  readonly clientId: string;
  /** The client's display name, when the token check told it. */
  readonly name: string | undefined;
  /** The actor id events carry (`sub`), to recognise one's own events. */
  readonly sub: string | undefined;
  readonly role: Role | undefined;
}

/** A session just signed in: its token as the token service issued it. */
export interface SignedIn extends Session {
  readonly token: string;
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

const FORM = 'application/x-www-form-urlencoded';

/** Gets a token for the client and asks the token check who it belongs to. */
export async function signIn(clientId: string, secret: string): Promise<SignedIn> {
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
  return { token, clientId, name: identity.name, sub: identity.sub, role: identity.scope };
}

/**
 * A session's token, renewed in place: `ask` signs the same client in again (the screen's
 * dialog) and answers the new token, or rejects when the person declines. Calls failing together
 * share one renewal; a call that failed with an older token just takes the current one.
 */
export class SessionToken implements RenewableToken {
  #value: string;
  #pending: Promise<string> | undefined;
  readonly #ask: () => Promise<string>;

  constructor(value: string, ask: () => Promise<string>) {
    this.#value = value;
    this.#ask = ask;
  }

  get value(): string {
    return this.#value;
  }

  renew(failed: string = this.#value): Promise<string> {
    if (failed !== this.#value) return Promise.resolve(this.#value);
    this.#pending ??= this.#ask()
      .then((value) => {
        this.#value = value;
        return value;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}
