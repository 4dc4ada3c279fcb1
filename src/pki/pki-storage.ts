/**
 * Where the PKI keeps its root CA and leaves. Kept narrow so a database-backed implementation
 * can replace the directory one when several instances share keys (STYLE.md point 5).
 */
import type { StoredCredential } from './credential.js';

/** Persistence of the root CA and of every leaf ever issued. */
export interface PkiStorage {
  /** The root CA, or `undefined` before the first start. */
  loadRoot(): Promise<StoredCredential | undefined>;
  /** Saves the root CA created on first start; refuses (`root_exists`) to replace one. */
  saveRoot(root: StoredCredential): Promise<void>;
  /** Every stored leaf, in no particular order. */
  loadLeaves(): Promise<StoredCredential[]>;
  /** Saves a newly issued leaf under `id` (its serial number); old leaves are kept. */
  saveLeaf(id: string, leaf: StoredCredential): Promise<void>;
}
