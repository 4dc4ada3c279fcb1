/**
 * Client secrets of the token service (SPEC.md §2): generated at random, stored only as a slow
 * scrypt hash in a self-describing string `scrypt$N$r$p$salt$hash` (base64url), compared in
 * constant time.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/** Cost parameters of newly written hashes: 2^15 × 8 × 1 costs 32 MiB and tens of ms per check. */
const N = 32768;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

// Bounds for parameters read back from the store: a tampered row must not make one check eat
// gigabytes or minutes.
const MAX_N = 1 << 20;
const MAX_R = 32;
const MAX_P = 16;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function derive(secret: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => {
    // Node refuses when 128·N·r exceeds maxmem (default 32 MiB, exactly our cost): leave room.
    const maxmem = 256 * (options.N ?? N) * (options.r ?? R);
    scrypt(secret, salt, keyLength, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A fresh random client secret: 32 bytes, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Hashes `secret` with scrypt and a random salt into `scrypt$N$r$p$salt$hash`. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(secret, salt, KEY_BYTES, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parameter(text: string | undefined, max: number): number | undefined {
  if (text === undefined || !/^[1-9]\d{0,7}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

function parseHash(stored: string): ParsedHash | undefined {
  const [scheme, nText, rText, pText, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || salt === undefined || key === undefined) {
    return undefined;
  }
  const n = parameter(nText, MAX_N);
  const r = parameter(rText, MAX_R);
  const p = parameter(pText, MAX_P);
  if (n === undefined || r === undefined || p === undefined) return undefined;
  if (n < 2 || (n & (n - 1)) !== 0) return undefined;
  if (!BASE64URL.test(salt) || !BASE64URL.test(key)) return undefined;
  const keyBytes = Buffer.from(key, 'base64url');
  if (keyBytes.length < 16 || keyBytes.length > 64) return undefined;
  return { n, r, p, salt: Buffer.from(salt, 'base64url'), key: keyBytes };
}

/** True when `secret` matches `stored` (a {@link hashSecret} result); malformed never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(secret, parsed.salt, parsed.key.length, {
    N: parsed.n,
    r: parsed.r,
    p: parsed.p,
  });
  return timingSafeEqual(key, parsed.key);
}
