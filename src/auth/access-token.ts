/**
 * Access tokens of the embedded token service (SPEC.md §2): random, handed out once, stored only as
 * a MAC under the pepper (`TokenRow.tokenHash`, `./pepper.ts`), so a copy of the store grants
 * nothing and a row written without the pepper matches no token.
 *
 * A token is 32 bytes, base64url (43 characters): 8 random bytes, an 8-byte tag (a MAC under the
 * pepper of those 8 bytes) and a 16-byte binding, a MAC under the pepper of the first 16 bytes,
 * the client's id, role, sub and name and the token's expiry. A token authenticates only while its
 * row and its client's row still say what it was issued for, so rows re-pointed to another client,
 * given another expiry or another role or sub authenticate nobody either.
 *
 * The tag lets erx tell a token it issued from a made-up one without a lookup
 * ({@link tokenTagged}): from an address flooding erx with made-up tokens, a fresh token of the
 * embedded service is still looked up, the made-up ones are not.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClientRow } from '../store/types.js';
import type { Pepper } from './pepper.js';

/** Longest token erx looks at; anything longer is not a token of any provider we talk to. */
export const MAX_TOKEN_LENGTH = 4096;

const NONCE_BYTES = 8;
const TAG_BYTES = 8;
const RANDOM_BYTES = NONCE_BYTES + TAG_BYTES;
const BINDING_BYTES = 16;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What a token is issued for: its client as registered, and its expiry (unix ms). */
export interface TokenBinding {
  readonly client: Pick<ClientRow, 'clientId' | 'role' | 'sub' | 'name'>;
  readonly expiresAt: number;
}

function bindingOf(pepper: Pepper, random: Uint8Array, { client, expiresAt }: TokenBinding) {
  const parts = [random, client.clientId, client.role, client.sub, client.name, String(expiresAt)];
  return pepper.mac('access token binding', parts).subarray(0, BINDING_BYTES);
}

function tagOf(pepper: Pepper, nonce: Uint8Array): Buffer {
  return pepper.mac('access token tag', [nonce]).subarray(0, TAG_BYTES);
}

/** A fresh access token for `binding` (see the module comment). */
export function generateAccessToken(pepper: Pepper, binding: TokenBinding): string {
  const nonce = randomBytes(NONCE_BYTES);
  const random = Buffer.concat([nonce, tagOf(pepper, nonce)]);
  return Buffer.concat([random, bindingOf(pepper, random, binding)]).toString('base64url');
}

/**
 * Whether `token` has the shape and tag of a token this pepper issued: no lookup, one MAC. A
 * made-up token passes with odds of 2^-64; a tagged token may still be unknown or expired.
 */
export function tokenTagged(pepper: Pepper, token: string): boolean {
  if (!TOKEN.test(token)) return false;
  const bytes = Buffer.from(token, 'base64url');
  const nonce = bytes.subarray(0, NONCE_BYTES);
  return timingSafeEqual(bytes.subarray(NONCE_BYTES, RANDOM_BYTES), tagOf(pepper, nonce));
}

/** The stored hash of a token: lowercase hex HMAC-SHA-256 under the pepper (its store key). */
export function storedTokenHash(pepper: Pepper, token: string): string {
  return pepper.mac('access token', [token]).toString('hex');
}

/** Whether `token` was issued for `binding` under this pepper. */
export function tokenIssuedFor(pepper: Pepper, token: string, binding: TokenBinding): boolean {
  if (!TOKEN.test(token)) return false;
  const bytes = Buffer.from(token, 'base64url');
  const expected = bindingOf(pepper, bytes.subarray(0, RANDOM_BYTES), binding);
  return timingSafeEqual(bytes.subarray(RANDOM_BYTES), expected);
}

/**
 * Lowercase hex SHA-256 of a token: its key in the token-check cache (memory only, never stored),
 * so a heap dump holds no usable token.
 */
export function tokenCacheKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
