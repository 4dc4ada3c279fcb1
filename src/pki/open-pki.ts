/**
 * Starting the ledger PKI: the root CA from operator-given PEM files, or from storage, or
 * created there on first start; a leaf signer over it; and the trust store that pins it.
 */
import { readFile } from 'node:fs/promises';
import { credentialFromPem, credentialToPem } from './credential.js';
import type { Credential } from './credential.js';
import { PkiError } from './pki-error.js';
import type { PkiStorage } from './pki-storage.js';
import { assertRootUsable, createRootCa } from './root-ca.js';
import type { SignPool } from './sign-pool.js';
import { LeafSigner } from './signer.js';
import { TrustStore } from './trust-store.js';

export interface OpenPkiOptions {
  /** Where leaves (and a generated root) are kept, e.g. `DirectoryPkiStorage(<dataDir>/pki)`. */
  storage: PkiStorage;
  /** Operator-given root CA: certificate and private key PEM files, both or neither. */
  rootCertificatePath?: string;
  rootPrivateKeyPath?: string;
  /** Further roots to trust for verification only (e.g. the root before a root rotation). */
  extraTrustedRootsPem?: readonly string[];
  leafLifetimeMs?: number;
  renewBeforeMs?: number;
  /** The threads that sign events (the runtime's); without them the signer signs in-thread. */
  pool?: SignPool;
}

/** The running PKI of one service instance. */
export interface Pki {
  readonly root: Credential;
  readonly signer: LeafSigner;
  readonly trustStore: TrustStore;
}

async function rootFromFiles(certificatePath: string, privateKeyPath: string): Promise<Credential> {
  const root = await credentialFromPem({
    certificatePem: await readFile(certificatePath, 'utf8'),
    privateKeyPem: await readFile(privateKeyPath, 'utf8'),
  });
  assertRootUsable(root.certificate);
  return root;
}

async function rootFromStorage(storage: PkiStorage): Promise<Credential> {
  const existing = await storage.loadRoot();
  if (existing !== undefined) return credentialFromPem(existing);
  const stored = credentialToPem(await createRootCa());
  try {
    await storage.saveRoot(stored);
  } catch (error) {
    // Another process created it first: use theirs, never overwrite a root.
    const raced = error instanceof PkiError && error.reason === 'root_exists';
    const theirs = raced ? await storage.loadRoot() : undefined;
    if (theirs === undefined) throw error;
    return credentialFromPem(theirs);
  }
  return credentialFromPem(stored);
}

/** Loads or creates the root CA, opens the leaf signer and pins the root (plus any extra roots). */
export async function openPki(options: OpenPkiOptions): Promise<Pki> {
  const { rootCertificatePath: certPath, rootPrivateKeyPath: keyPath } = options;
  if ((certPath === undefined) !== (keyPath === undefined)) throw new PkiError('incomplete_root');
  const root =
    certPath !== undefined && keyPath !== undefined
      ? await rootFromFiles(certPath, keyPath)
      : await rootFromStorage(options.storage);
  const signer = await LeafSigner.open({
    storage: options.storage,
    root,
    leafLifetimeMs: options.leafLifetimeMs,
    renewBeforeMs: options.renewBeforeMs,
    pool: options.pool,
  });
  const trustStore = await TrustStore.fromCertificates([
    root.certificate,
    ...(options.extraTrustedRootsPem ?? []),
  ]);
  return { root, signer, trustStore };
}
