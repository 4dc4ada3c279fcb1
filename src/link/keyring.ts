/**
 * The ring of Ed25519 link-signing keys (SPEC.md §3: "keys rotate, old public keys stay trusted
 * for verification of links issued while they were current"). One key is current and signs; the
 * retired ones keep only their public half and the window in which they were current. Every
 * operation first looks whether another process changed the ring on disk (a `stat`), so a
 * rotation by `erx keys rotate` reaches a running service on its next signature or verification.
 */
import { sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { LinkSigner } from './build.js';
import {
  fingerprint,
  generateKeyRecord,
  importPrivateKey,
  importPublicKey,
  publicJwk,
  publicPem,
} from './key-material.js';
import type { Ed25519PublicJwk, KeyRecord } from './key-material.js';
import { wasCurrentAt } from './key-window.js';
import { KeyringError } from './keyring-error.js';
import { MAX_ISSUED_AT } from './limits.js';
import { withRingLock } from './ring-lock.js';
import type { RingLockOptions } from './ring-lock.js';
import { createRing, ensureRingDir, readRing, statRing, writeRing } from './ring-store.js';
import type { RingStamp, StoredRing } from './ring-store.js';
import type { LinkVerificationKeys } from './verify.js';

/** Public facts about one key of the ring. */
export interface LinkKeyInfo {
  readonly kid: string;
  /** Unix seconds. */
  readonly createdAt: number;
  /** Unix seconds; null for the current key. */
  readonly retiredAt: number | null;
  readonly current: boolean;
  /** Lowercase hex SHA-256 of the raw public key. */
  readonly fingerprint: string;
}

/** A public key of the ring in forms another verifier can load (JWK, SPKI PEM). */
export interface PublicLinkKey extends LinkKeyInfo {
  readonly jwk: Ed25519PublicJwk;
  readonly pem: string;
}

/** Options of {@link LinkKeyring.open}. */
export interface OpenLinkKeyringOptions {
  /** Creation time of the first key when the ring is new (unix seconds; default: now). */
  readonly now?: number;
  /** Waiting for the rotation lock. */
  readonly lock?: RingLockOptions;
  /**
   * How long the ring on disk is trusted unchanged before it is looked at again, in ms (default 0:
   * on every use). Another process's rotation is adopted that much later; the key windows' clock-skew
   * allowance covers that, and a verify that fails re-reads at once (`refresh(true)`).
   */
  readonly recheckMs?: number;
}

interface LoadedKey {
  readonly record: KeyRecord;
  readonly publicKey: KeyObject;
}

interface LoadedRing {
  readonly stamp: RingStamp;
  /** Oldest first; the last one is current. */
  readonly keys: readonly LoadedKey[];
  readonly privateKey: KeyObject;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

function checkTime(now: number): number {
  if (!Number.isSafeInteger(now) || now < 0 || now > MAX_ISSUED_AT) {
    throw new RangeError(`not a unix time in seconds: ${now}`);
  }
  return now;
}

function load(stored: StoredRing): LoadedRing {
  const current = stored.keys.at(-1);
  // parseRing guarantees a last, current key with its private key; this only narrows the types.
  if (current?.privateKey === undefined) throw new KeyringError('corrupt', 'no current key');
  return {
    stamp: stored.stamp,
    keys: stored.keys.map((record) => ({ record, publicKey: importPublicKey(record.publicKey) })),
    privateKey: importPrivateKey(current.publicKey, current.privateKey),
  };
}

function info(record: KeyRecord): LinkKeyInfo {
  return {
    kid: record.kid,
    createdAt: record.createdAt,
    retiredAt: record.retiredAt,
    current: record.retiredAt === null,
    fingerprint: fingerprint(record.publicKey),
  };
}

function sameStamp(a: RingStamp, b: RingStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** The link-signing key ring persisted in one directory (the service uses `<dataDir>/link-keys`). */
export class LinkKeyring implements LinkSigner, LinkVerificationKeys {
  /** The directory holding the ring. */
  readonly directory: string;
  readonly #lock: RingLockOptions;
  readonly #recheckMs: number;
  #ring: LoadedRing;
  #checkedAt: number;
  #generation = 0;

  private constructor(directory: string, ring: LoadedRing, options: OpenLinkKeyringOptions) {
    this.directory = directory;
    this.#ring = ring;
    this.#lock = options.lock ?? {};
    this.#recheckMs = options.recheckMs ?? 0;
    this.#checkedAt = performance.now();
  }

  /** Changes whenever the ring in memory is replaced: results computed from its keys expire. */
  get generation(): number {
    return this.#generation;
  }

  /** Opens the ring in `dir`, creating the directory and a first key when there is none yet. */
  static open(dir: string, options: OpenLinkKeyringOptions = {}): LinkKeyring {
    ensureRingDir(dir);
    let stored = readRing(dir);
    if (stored === undefined) {
      // Whichever process creates the ring first wins; everyone then reads the winner's ring.
      createRing(dir, [generateKeyRecord(checkTime(options.now ?? unixNow()))]);
      stored = readRing(dir);
      if (stored === undefined) throw new KeyringError('io', 'ring file vanished after creation');
    }
    return new LinkKeyring(dir, load(stored), options);
  }

  /**
   * Retires the current key at `now` and makes a new one current. The retired key's private half
   * is deleted: it is never needed again, and a stolen retired key could otherwise sign links
   * dated inside its old window.
   */
  async rotate(now: number = unixNow()): Promise<LinkKeyInfo> {
    checkTime(now);
    const created = await withRingLock(
      this.directory,
      () => {
        // Read under the lock: the ring in memory may be older than the one on disk.
        const keys = readRing(this.directory)?.keys;
        const current = keys?.at(-1);
        if (keys === undefined || current === undefined) {
          throw new KeyringError('io', 'ring file missing');
        }
        // Never before the current key's creation, so windows stay in order if the clock went back.
        const at = Math.max(now, current.createdAt);
        const retired: KeyRecord = {
          kid: current.kid,
          createdAt: current.createdAt,
          retiredAt: at,
          publicKey: current.publicKey,
        };
        const next = generateKeyRecord(at);
        writeRing(this.directory, [...keys.slice(0, -1), retired, next]);
        return next;
      },
      this.#lock,
    );
    this.refresh(true);
    return info(created);
  }

  /**
   * Re-reads the ring when another process has replaced it (at most every `recheckMs` unless
   * `force`); keeps the ring in memory otherwise. True when the ring changed.
   */
  refresh(force = false): boolean {
    const now = performance.now();
    if (!force && now - this.#checkedAt < this.#recheckMs) return false;
    this.#checkedAt = now;
    const stamp = statRing(this.directory);
    // A ring file that disappeared leaves the service working on the ring it knows.
    if (stamp === undefined || sameStamp(stamp, this.#ring.stamp)) return false;
    const stored = readRing(this.directory);
    if (stored === undefined) return false;
    this.#ring = load(stored);
    this.#generation++;
    return true;
  }

  /** Public facts about every key, oldest first. */
  list(): LinkKeyInfo[] {
    this.refresh();
    return this.#ring.keys.map((key) => info(key.record));
  }

  /** Public facts about the current key. */
  current(): LinkKeyInfo {
    this.refresh();
    return info(this.#currentRecord());
  }

  /** Every public key of the ring with its window, as JWK and PEM, for other verifiers. */
  publicKeys(): PublicLinkKey[] {
    this.refresh();
    return this.#ring.keys.map(({ record }) => ({
      ...info(record),
      jwk: publicJwk(record),
      pem: publicPem(record.publicKey),
    }));
  }

  /**
   * Signs `data` with the current key. With `at` (the issue time the signature vouches for), a
   * time before the current key existed is refused: such a link would never verify.
   */
  sign(data: Uint8Array, at?: number): Buffer {
    this.refresh();
    if (at !== undefined && !wasCurrentAt(this.#currentRecord(), at)) {
      throw new KeyringError('not_current');
    }
    return sign(null, data, this.#ring.privateKey);
  }

  /** Public keys that were current at `t`, newest first (see `key-window.ts`). */
  keysCurrentAt(t: number): KeyObject[] {
    this.refresh();
    return this.#ring.keys
      .filter((key) => wasCurrentAt(key.record, t))
      .map((key) => key.publicKey)
      .reverse();
  }

  #currentRecord(): KeyRecord {
    const current = this.#ring.keys.at(-1);
    if (current === undefined) throw new KeyringError('corrupt', 'no current key');
    return current.record;
  }
}
