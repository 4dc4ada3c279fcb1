/**
 * Where the PKI keeps its root CA and leaves. Kept narrow so a database-backed implementation
 * can replace the directory one when several instances share keys (STYLE.md point 5).
 */
import type { StoredCredential } from './credential.js';

/** A stored leaf that can still sign: its certificate and private key, under its id. */
export interface StoredLeaf extends StoredCredential {
  /** The id it was saved under (its serial number). */
  readonly id: string;
}

/** Persistence of the root CA and of every leaf ever issued. */
export interface PkiStorage {
  /** The root CA, or `undefined` before the first start. */
  loadRoot(): Promise<StoredCredential | undefined>;
  /** Saves the root CA created on first start; refuses (`root_exists`) to replace one. */
  saveRoot(root: StoredCredential): Promise<void>;
  /** Every stored leaf that still has its private key, in no particular order. */
  loadLeaves(): Promise<StoredLeaf[]>;
  /** Saves a newly issued leaf under `id` (its serial number); old leaves are kept. */
  saveLeaf(id: string, leaf: StoredCredential): Promise<void>;
  /**
   * Deletes the private key of leaf `id` for good, keeping its certificate (for audits): done once
   * the leaf can no longer sign. Deleting a key that is gone already (another instance sharing the
   * storage did) is no error.
   */
  retireLeaf(id: string): Promise<void>;
}
