/**
 * The key that signs ledger events: the leaf valid at the event's time, issued and rotated
 * automatically (SPEC.md §7). Earlier leaves stay in storage for audits, without their private
 * keys: a leaf that can no longer sign is retired when the signer opens and at each rotation.
 */
import type { webcrypto } from 'node:crypto';
import { credentialFromPem, credentialToPem } from './credential.js';
import type { Credential } from './credential.js';
import { LEAF_LIFETIME_MS, issueLeaf } from './issue-leaf.js';
import type { PkiStorage } from './pki-storage.js';
import { canSignAt, retireEndedLeaves } from './retire-leaves.js';
import type { SignPool } from './sign-pool.js';

/** A leaf private key with the `x5c` that certifies it (RFC 7515 §4.1.6: standard base64 DER). */
export interface SigningKey {
  readonly privateKey: webcrypto.CryptoKey;
  /** `[leaf, root]`, base64 DER. */
  readonly x5c: readonly [string, string];
  readonly notBefore: Date;
  readonly notAfter: Date;
  /**
   * The threads that make this key's signatures; without them, signatures are made on the calling
   * thread (tools, tests and threads that are already off the event loop; see `sign-with-key.ts`).
   */
  readonly pool?: SignPool;
}

/** Gives the key to sign an event stamped at a given time. */
export interface Signer {
  /** The key of a leaf valid at `at`, issuing a new leaf when none is (or soon will not be). */
  keyAt(at: Date): Promise<SigningKey>;
}

export interface LeafSignerOptions {
  storage: PkiStorage;
  root: Credential;
  /** Lifetime of new leaves (default 24 h). */
  leafLifetimeMs?: number;
  /** A leaf this close to expiry is replaced (default a tenth of the lifetime). */
  renewBeforeMs?: number;
  /** The signing threads of the running service (see {@link SigningKey.pool}). */
  pool?: SignPool;
  /** Clock, unix ms (default `Date.now`): a leaf whose window has passed by it is retired. */
  now?: () => number;
}

function base64(der: Uint8Array): string {
  return Buffer.from(der).toString('base64');
}

/** Signs with short-lived leaves under one root, rotating them as time passes. */
export class LeafSigner implements Signer {
  private readonly storage: PkiStorage;
  private readonly root: Credential;
  private readonly rootBase64: string;
  private readonly lifetimeMs: number;
  private readonly renewBeforeMs: number;
  private readonly pool: SignPool | undefined;
  private readonly now: () => number;
  private keys: SigningKey[] = [];
  private issuing: Promise<SigningKey> | undefined;

  private constructor(options: LeafSignerOptions) {
    this.storage = options.storage;
    this.root = options.root;
    this.rootBase64 = base64(options.root.der);
    this.lifetimeMs = options.leafLifetimeMs ?? LEAF_LIFETIME_MS;
    this.renewBeforeMs = options.renewBeforeMs ?? Math.floor(this.lifetimeMs / 10);
    this.pool = options.pool;
    this.now = options.now ?? Date.now;
  }

  /** Opens a signer over the stored leaves of `root` (leaves of another root are ignored). */
  static async open(options: LeafSignerOptions): Promise<LeafSigner> {
    const signer = new LeafSigner(options);
    // Keys left by a stop (or a crash) after a leaf's window passed go before anything is loaded.
    await retireEndedLeaves(signer.storage, signer.now(), signer.renewBeforeMs);
    const rootSpki = Buffer.from(options.root.certificate.publicKey.rawData);
    for (const stored of await options.storage.loadLeaves()) {
      const leaf = await credentialFromPem(stored);
      const issuer = leaf.certificate.issuer === options.root.certificate.subject;
      if (issuer && (await leaf.certificate.verify({ publicKey: rootSpki, signatureOnly: true }))) {
        signer.keys.push(signer.toSigningKey(leaf));
      }
    }
    return signer;
  }

  /** How many leaves this signer holds the keys of (stored and issued, not yet retired). */
  get leafCount(): number {
    return this.keys.length;
  }

  /** The leaf valid at `at` with time to spare, issuing (and storing) a new one when needed. */
  async keyAt(at: Date): Promise<SigningKey> {
    const found = this.find(at);
    if (found !== undefined) return found;
    // One issuance at a time: concurrent appends that all find no leaf share the new one.
    while (this.issuing !== undefined) {
      await this.issuing.catch(() => undefined);
      const now = this.find(at);
      if (now !== undefined) return now;
    }
    this.issuing = this.issue(at);
    try {
      return await this.issuing;
    } finally {
      this.issuing = undefined;
    }
  }

  private find(at: Date): SigningKey | undefined {
    const t = at.getTime();
    let best: SigningKey | undefined;
    for (const key of this.keys) {
      const usable = key.notBefore.getTime() <= t && canSignAt(key.notAfter, t, this.renewBeforeMs);
      if (usable && (best === undefined || key.notAfter > best.notAfter)) best = key;
    }
    return best;
  }

  private async issue(at: Date): Promise<SigningKey> {
    // A rotation: the leaf it replaces, and any other whose window has passed, is retired first.
    const now = this.now();
    this.keys = this.keys.filter((key) => canSignAt(key.notAfter, now, this.renewBeforeMs));
    await retireEndedLeaves(this.storage, now, this.renewBeforeMs);
    const fresh = await issueLeaf(this.root, { at, lifetimeMs: this.lifetimeMs });
    const stored = credentialToPem(fresh);
    await this.storage.saveLeaf(fresh.certificate.serialNumber, stored);
    // Signing with the reloaded key proves the stored copy is usable (and drops extractability).
    const key = this.toSigningKey(await credentialFromPem(stored));
    this.keys.push(key);
    return key;
  }

  private toSigningKey(leaf: Credential): SigningKey {
    return {
      privateKey: leaf.privateKey,
      x5c: [base64(leaf.der), this.rootBase64],
      notBefore: leaf.certificate.notBefore,
      notAfter: leaf.certificate.notAfter,
      pool: this.pool,
    };
  }
}
