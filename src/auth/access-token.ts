/**
 * Access tokens of the embedded token service (SPEC.md §2): random, handed out once, stored only
 * as their SHA-256 (`TokenRow.tokenHash`), so a copy of the store grants nothing.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Longest token erx looks at; anything longer is not a token of any provider we talk to. */
export const MAX_TOKEN_LENGTH = 4096;

/** A fresh access token: 32 random bytes, base64url (43 characters). */
export function generateAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Lowercase hex SHA-256 of a token: its key in the store and in the token-check cache. */
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
