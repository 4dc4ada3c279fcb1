/**
 * The embedded token lookup shared by the token check (seed §4.3) and the embedded token
 * checker: by SHA-256, expired tokens and removed clients count as unknown.
 */
import type { ClientRow, Store, TokenRow } from '../store/types.js';
import { MAX_TOKEN_LENGTH, hashAccessToken } from './access-token.js';

/** An active token with the client it was issued to. */
export interface ActiveToken {
  token: TokenRow;
  client: ClientRow;
}

/** The active token `token` at `nowMs` (unix ms), or `undefined` when unknown or expired. */
export async function findActiveToken(
  store: Store,
  token: string,
  nowMs: number,
): Promise<ActiveToken | undefined> {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
  const row = await store.getToken(hashAccessToken(token));
  if (row === undefined || row.expiresAt <= nowMs) return undefined;
  const client = await store.getClient(row.clientId);
  if (client === undefined) return undefined;
  return { token: row, client };
}
