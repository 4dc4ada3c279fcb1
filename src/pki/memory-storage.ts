/**
 * {@link PkiStorage} in memory: for tests and throw-away instances whose chains need not be
 * verifiable after a restart.
 */
import type { StoredCredential } from './credential.js';
import { PkiError } from './pki-error.js';
import type { PkiStorage, StoredLeaf } from './pki-storage.js';

interface KeptLeaf {
  readonly certificatePem: string;
  /** Gone once the leaf is retired. */
  privateKeyPem?: string;
}

/** Keeps the root CA and leaves in this process only. */
export class MemoryPkiStorage implements PkiStorage {
  private root: StoredCredential | undefined;
  private readonly leaves = new Map<string, KeptLeaf>();

  async loadRoot(): Promise<StoredCredential | undefined> {
    return this.root;
  }

  async saveRoot(root: StoredCredential): Promise<void> {
    if (this.root !== undefined) throw new PkiError('root_exists');
    this.root = root;
  }

  async loadLeaves(): Promise<StoredLeaf[]> {
    const leaves: StoredLeaf[] = [];
    for (const [id, { certificatePem, privateKeyPem }] of this.leaves) {
      if (privateKeyPem !== undefined) leaves.push({ id, certificatePem, privateKeyPem });
    }
    return leaves;
  }

  async saveLeaf(id: string, leaf: StoredCredential): Promise<void> {
    this.leaves.set(id, { certificatePem: leaf.certificatePem, privateKeyPem: leaf.privateKeyPem });
  }

  async retireLeaf(id: string): Promise<void> {
    const leaf = this.leaves.get(id);
    if (leaf !== undefined) delete leaf.privateKeyPem;
  }
}
