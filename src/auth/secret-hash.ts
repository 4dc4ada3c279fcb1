/**
 * Client secrets of the token service (SPEC.md §2): generated at random, stored only as a slow
 * scrypt hash bound to the pepper (`./pepper.ts`) and to the client, in a self-describing string
 * `scrypt-hmac$N$r$p$salt$mac` (base64url): `mac` is the MAC under the pepper of the client's id,
 * role, sub and name and of the secret's 32-byte scrypt key. Without the pepper no one can write a
 * hash that matches a secret, nor move a hash to another client or give the client another role,
 * sub or name. Compared in constant time.
 *
 * Hashes of the older form `scrypt$N$r$p$salt$key` never match: {@link SecretHashes.upgrade} turns
 * them into the bound form without the secret (the runtime does so once, at its first start:
 * `server/bind-secret-hashes.ts`).
 *
 * The scrypt work itself runs where a {@link ScryptRunner} puts it: the service's own thread
 * (`./scrypt-pool.ts`), or libuv's pool for tools ({@link libuvScrypt}).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ClientRow } from '../store/types.js';
import type { Pepper } from './pepper.js';

/**
 * The scrypt cost N of newly written hashes: 2^15 × r 8 × p 1 costs 32 MiB and tens of ms per
 * check. A service started for a test may write cheaper ones (`RuntimeOptions.secretCost`), never
 * below {@link MIN_SECRET_COST}; a hash names its cost, so it is checked at the cost it was written.
 */
export const SECRET_COST = 32768;
/** The cheapest cost a hash may be written at: the scrypt test vectors' own 2^10. */
export const MIN_SECRET_COST = 1024;
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

/** What a secret hash is bound to besides the pepper: the client as registered. */
export type ClientIdentity = Pick<ClientRow, 'clientId' | 'role' | 'sub' | 'name'>;

/** The form of hashes erx writes, and the older one that only {@link SecretHashes.upgrade} reads. */
const BOUND = 'scrypt-hmac';
const PLAIN = 'scrypt';

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  /** `mac` in the bound form; the scrypt key in the plain one. */
  value: Buffer;
}

function parameter(text: string | undefined, max: number): number | undefined {
  if (text === undefined || !/^[1-9]\d{0,7}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

function parseHash(stored: string, scheme: string): ParsedHash | undefined {
  const [found, nText, rText, pText, salt, value, ...rest] = stored.split('$');
  if (found !== scheme || rest.length > 0 || salt === undefined || value === undefined) {
    return undefined;
  }
  const n = parameter(nText, MAX_N);
  const r = parameter(rText, MAX_R);
  const p = parameter(pText, MAX_P);
  if (n === undefined || r === undefined || p === undefined) return undefined;
  if (n < 2 || (n & (n - 1)) !== 0) return undefined;
  if (!BASE64URL.test(salt) || !BASE64URL.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64url');
  if (bytes.length !== KEY_BYTES) return undefined;
  return { n, r, p, salt: Buffer.from(salt, 'base64url'), value: bytes };
}

function format(scheme: string, h: ParsedHash): string {
  const { n, r, p, salt, value } = h;
  return [scheme, n, r, p, salt.toString('base64url'), value.toString('base64url')].join('$');
}

/** Whether `stored` is in the form erx writes (bound to the pepper), whether or not it matches. */
export function isBoundSecretHash(stored: string): boolean {
  return stored.startsWith(`${BOUND}$`);
}

/** Hashes and checks client secrets under one pepper, with scrypt on one {@link ScryptRunner}. */
export class SecretHashes {
  readonly #pepper: Pepper;
  readonly #scrypt: ScryptRunner;
  readonly #cost: number;
  /** What a hash that cannot be checked is checked against: the same work, never a match. */
  readonly #standIn: ParsedHash;

  /** `cost`: the scrypt N of the hashes {@link hash} writes, a power of two (default 2^15). */
  constructor(pepper: Pepper, scrypt: ScryptRunner, cost: number = SECRET_COST) {
    if (!Number.isInteger(Math.log2(cost)) || cost < MIN_SECRET_COST || cost > MAX_N) {
      throw new RangeError(`a secret's scrypt cost is a power of two from 2^10 to 2^20: ${cost}`);
    }
    this.#pepper = pepper;
    this.#scrypt = scrypt;
    this.#cost = cost;
    this.#standIn = {
      n: cost,
      r: R,
      p: P,
      salt: randomBytes(SALT_BYTES),
      value: randomBytes(KEY_BYTES),
    };
  }

  /** Hashes `secret` of `client` with scrypt and a random salt into the bound form. */
  async hash(secret: string, client: ClientIdentity): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const n = this.#cost;
    const key = await this.#scrypt.derive({ secret, salt, keyLength: KEY_BYTES, n, r: R, p: P });
    return format(BOUND, { n, r: R, p: P, salt, value: this.#mac(client, key) });
  }

  /**
   * True when `secret` is the secret of `client` whose hash is `stored` (a {@link hash} result).
   * A malformed or older-form hash, or none (`undefined`: an unknown client), costs the same
   * scrypt run and never matches, so timing tells nothing. `lane` is the caller's address.
   */
  async verify(
    secret: string,
    stored: string | undefined,
    client: ClientIdentity,
    lane?: string,
  ): Promise<boolean> {
    const parsed = stored === undefined ? undefined : parseHash(stored, BOUND);
    const against = parsed ?? this.#standIn;
    const job = {
      secret,
      salt: against.salt,
      keyLength: KEY_BYTES,
      n: against.n,
      r: against.r,
      p: against.p,
    };
    const key = await this.#scrypt.derive(job, lane);
    return timingSafeEqual(this.#mac(client, key), against.value) && parsed !== undefined;
  }

  /**
   * The bound form of an older-form hash `stored` of `client` (no secret needed: the MAC is over
   * the stored key); `undefined` when `stored` is not an older-form hash erx can read.
   */
  upgrade(stored: string, client: ClientIdentity): string | undefined {
    const plain = parseHash(stored, PLAIN);
    return plain && format(BOUND, { ...plain, value: this.#mac(client, plain.value) });
  }

  #mac(client: ClientIdentity, key: Uint8Array): Buffer {
    const { clientId, role, sub, name } = client;
    return this.#pepper.mac('client secret', [clientId, role, sub, name, key]);
  }
}
