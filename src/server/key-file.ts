/**
 * Keys kept in files of the data directory, never in the database (the seal key of verified heads,
 * the token service's pepper): random bytes, made on first use with mode 0600, so whoever can write
 * rows but not read the file cannot make what the key makes. Instances sharing a database share
 * the data directory's keys.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeNewFileSynced } from '../write-synced.js';

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException).code === code;
}

/** The key in `path`; throws when the file holds anything but a key of `bytes` bytes. */
function readKey(path: string, bytes: number): Buffer {
  const key = readFileSync(path);
  if (key.length !== bytes) {
    throw new Error(`${path} does not hold a ${bytes}-byte key; remove it to make anew`);
  }
  return key;
}

/**
 * Writes a new key to `path` only if none is there: written whole and synced under a temporary
 * name first, then linked into place, which fails if another instance was first. So the file is
 * never seen half written, and every instance ends up with the one key that got there.
 */
function createKey(path: string, bytes: number): Buffer {
  const key = randomBytes(bytes);
  const temporary = `${path}.${randomUUID()}.tmp`;
  writeNewFileSynced(temporary, key, 0o600);
  try {
    linkSync(temporary, path);
    return key;
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    return readKey(path, bytes);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The `bytes`-byte key in the file `name` of `dataDir`, made on first use (mode 0600). */
export function openKeyFile(dataDir: string, name: string, bytes: number): Buffer {
  const path = join(dataDir, name);
  try {
    return readKey(path, bytes);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  // A tool may come first on a new data directory (`erx clients add`).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return createKey(path, bytes);
}
