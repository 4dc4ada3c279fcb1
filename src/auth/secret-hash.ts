/**
 * Client secrets of the token service (SPEC.md §2): generated at random, stored only as a slow
 * scrypt hash in a self-describing string `scrypt$N$r$p$salt$hash` (base64url), compared in
 * constant time. The scrypt work itself runs where a {@link ScryptRunner} puts it: the service's
 * own thread (`./scrypt-pool.ts`), or libuv's pool for tools ({@link libuvScrypt}).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

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

/** One scrypt run: the secret, its salt, the key length and the cost parameters. */
export interface ScryptJob {
  readonly secret: string;
  readonly salt: Uint8Array;
  readonly keyLength: number;
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/** Runs scrypt jobs; `lane` names the caller (its address) for a runner that serves in turn. */
export interface ScryptRunner {
  derive(job: ScryptJob, lane?: string): Promise<Buffer>;
}

/** The memory bound of a job: Node refuses when 128·N·r exceeds maxmem, so leave room. */
export function scryptMaxmem(job: Pick<ScryptJob, 'n' | 'r'>): number {
  return 256 * job.n * job.r;
}

/**
 * scrypt on libuv's thread pool, for tools (`erx clients add`) and tests. Never for the service:
 * that pool also runs WebCrypto's verification, which a flood of secrets would starve.
 */
export const libuvScrypt: ScryptRunner = {
  derive: (job) =>
    new Promise<Buffer>((resolve, reject) => {
      const options = { N: job.n, r: job.r, p: job.p, maxmem: scryptMaxmem(job) };
      scrypt(job.secret, job.salt, job.keyLength, options, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    }),
};

/** A fresh random client secret: 32 bytes, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
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

/** Hashes and checks client secrets with scrypt on one {@link ScryptRunner}. */
export class SecretHashes {
  readonly #scrypt: ScryptRunner;
  /** What a hash that cannot be checked is checked against: the same work, never a match. */
  readonly #standIn: ParsedHash = {
    n: N,
    r: R,
    p: P,
    salt: randomBytes(SALT_BYTES),
    key: randomBytes(KEY_BYTES),
  };

  constructor(scrypt: ScryptRunner) {
    this.#scrypt = scrypt;
  }

  /** Hashes `secret` with scrypt and a random salt into `scrypt$N$r$p$salt$hash`. */
  async hash(secret: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.#scrypt.derive({ secret, salt, keyLength: KEY_BYTES, n: N, r: R, p: P });
    return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /**
   * True when `secret` matches `stored` (a {@link hash} result). A malformed or absent hash
   * (`undefined`: an unknown client) costs the same scrypt run and never matches, so timing tells
   * nothing. `lane` is the caller's address.
   */
  async verify(secret: string, stored: string | undefined, lane?: string): Promise<boolean> {
    const parsed = stored === undefined ? undefined : parseHash(stored);
    const against = parsed ?? this.#standIn;
    const job = {
      secret,
      salt: against.salt,
      keyLength: against.key.length,
      n: against.n,
      r: against.r,
      p: against.p,
    };
    const key = await this.#scrypt.derive(job, lane);
    return timingSafeEqual(key, against.key) && parsed !== undefined;
  }
}
