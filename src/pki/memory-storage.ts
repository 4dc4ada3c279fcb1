/**
 * {@link PkiStorage} in memory: for tests and throw-away instances whose chains need not be
 * verifiable after a restart.
 */
import type { StoredCredential } from './credential.js';
import { PkiError } from './pki-error.js';
import type { PkiStorage } from './pki-storage.js';

/** Keeps the root CA and leaves in this process only. */
export class MemoryPkiStorage implements PkiStorage {
  private root: StoredCredential | undefined;
  private readonly leaves = new Map<string, StoredCredential>();

  async loadRoot(): Promise<StoredCredential | undefined> {
    return this.root;
  }

  async saveRoot(root: StoredCredential): Promise<void> {
    if (this.root !== undefined) throw new PkiError('root_exists');
    this.root = root;
  }

  async loadLeaves(): Promise<StoredCredential[]> {
    return [...this.leaves.values()];
  }

  async saveLeaf(id: string, leaf: StoredCredential): Promise<void> {
    this.leaves.set(id, leaf);
  }
}
