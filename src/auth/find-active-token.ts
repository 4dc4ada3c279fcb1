/**
 * The embedded token lookup shared by the token check (seed §4.3) and the embedded token
 * checker: by the token's MAC under the pepper; expired tokens, removed clients and rows that no
 * longer say what the token was issued for (`./access-token.ts`) count as unknown.
 */
import type { ClientRow, Store, TokenRow } from '../store/types.js';
import { MAX_TOKEN_LENGTH, storedTokenHash, tokenIssuedFor } from './access-token.js';
import type { Pepper } from './pepper.js';

/** An active token with the client it was issued to. */
export interface ActiveToken {
  token: TokenRow;
  client: ClientRow;
}

/** The active token `token` at `nowMs` (unix ms), or `undefined` when unknown or expired. */
export async function findActiveToken(
  store: Store,
  pepper: Pepper,
  token: string,
  nowMs: number,
): Promise<ActiveToken | undefined> {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return undefined;
  const row = await store.clients.getToken(storedTokenHash(pepper, token));
  if (row === undefined || row.expiresAt <= nowMs) return undefined;
  const client = await store.clients.get(row.clientId);
  if (client === undefined) return undefined;
  if (!tokenIssuedFor(pepper, token, { client, expiresAt: row.expiresAt })) return undefined;
  return { token: row, client };
}
