/**
 * {@link PkiStorage} in a directory (`<dataDir>/pki`): PEM files, private keys mode 0600 in a
 * 0700 directory, every file written atomically (temporary file, fsync, rename) and a retired
 * leaf's key removed by one unlink, so a crash leaves either the whole key or none. Instances
 * sharing the directory save leaves under distinct names and may retire the same leaf at once.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, readFile, readdir, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredCredential } from './credential.js';
import { PkiError } from './pki-error.js';
import type { PkiStorage, StoredLeaf } from './pki-storage.js';

const ROOT_CERT = 'root-cert.pem';
const ROOT_KEY = 'root-key.pem';
const LEAVES = 'leaves';
const CERT_SUFFIX = '-cert.pem';
const KEY_SUFFIX = '-key.pem';
const PRIVATE_MODE = 0o600;
const PUBLIC_MODE = 0o644;
const DIR_MODE = 0o700;

function isMissing(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT';
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Writes `text` to `path` so a reader sees either the old file or the whole new one. */
async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.${randomUUID()}.tmp`;
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.chmod(mode);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Makes the renames and unlinks in `folder` durable; not every file system can sync a directory. */
async function syncDirectory(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

function checkLeafId(id: string): void {
  if (!/^[0-9A-Za-z_-]{1,128}$/.test(id)) throw new TypeError(`invalid leaf id "${id}"`);
}

/** Keeps the root CA and leaves as PEM files in one directory. */
export class DirectoryPkiStorage implements PkiStorage {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  private async ensureDirectory(path: string): Promise<void> {
    await mkdir(path, { recursive: true, mode: DIR_MODE });
    await chmod(path, DIR_MODE);
  }

  async loadRoot(): Promise<StoredCredential | undefined> {
    const certificatePem = await readOptional(join(this.directory, ROOT_CERT));
    if (certificatePem === undefined) return undefined;
    const privateKeyPem = await readOptional(join(this.directory, ROOT_KEY));
    if (privateKeyPem === undefined) throw new PkiError('incomplete_root');
    return { certificatePem, privateKeyPem };
  }

  async saveRoot(root: StoredCredential): Promise<void> {
    await this.ensureDirectory(this.directory);
    const certPath = join(this.directory, ROOT_CERT);
    if ((await readOptional(certPath)) !== undefined) throw new PkiError('root_exists');
    // Key first: a certificate on disk always has its key beside it (see loadRoot).
    await writeAtomic(join(this.directory, ROOT_KEY), root.privateKeyPem, PRIVATE_MODE);
    await writeAtomic(certPath, root.certificatePem, PUBLIC_MODE);
  }

  async loadLeaves(): Promise<StoredLeaf[]> {
    const folder = join(this.directory, LEAVES);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const leaves: StoredLeaf[] = [];
    for (const name of names.filter((n) => n.endsWith(CERT_SUFFIX)).sort()) {
      const id = name.slice(0, -CERT_SUFFIX.length);
      const privateKeyPem = await readOptional(join(folder, `${id}${KEY_SUFFIX}`));
      // A certificate without its key is a retired leaf: it can no longer sign.
      if (privateKeyPem === undefined) continue;
      const certificatePem = await readFile(join(folder, name), 'utf8');
      leaves.push({ id, certificatePem, privateKeyPem });
    }
    return leaves;
  }

  async saveLeaf(id: string, leaf: StoredCredential): Promise<void> {
    checkLeafId(id);
    const folder = join(this.directory, LEAVES);
    await this.ensureDirectory(this.directory);
    await this.ensureDirectory(folder);
    await writeAtomic(join(folder, `${id}${KEY_SUFFIX}`), leaf.privateKeyPem, PRIVATE_MODE);
    await writeAtomic(join(folder, `${id}${CERT_SUFFIX}`), leaf.certificatePem, PUBLIC_MODE);
  }

  async retireLeaf(id: string): Promise<void> {
    checkLeafId(id);
    const folder = join(this.directory, LEAVES);
    try {
      await unlink(join(folder, `${id}${KEY_SUFFIX}`));
    } catch (error) {
      // Retired already, by this instance before a crash or by another one sharing the directory.
      if (!isMissing(error)) throw error;
    }
    await syncDirectory(folder);
  }
}
