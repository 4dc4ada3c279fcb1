/**
 * The key that seals verified chain heads (`service/verified-heads.ts`): random bytes in a file of
 * the data directory, never in the database, so whoever can write rows but not read this file
 * cannot make a seal. Instances sharing a database share the data directory's keys.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { linkSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SEAL_KEY_BYTES } from '../service/index.js';
import { writeNewFileSynced } from '../write-synced.js';

/** The file name of the seal key in the data directory. */
export const SEAL_KEY_FILE = 'verified-heads.key';

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException).code === code;
}

/** The key in `path`; throws when the file holds anything but a key. */
function readKey(path: string): Buffer {
  const key = readFileSync(path);
  if (key.length !== SEAL_KEY_BYTES) {
    throw new Error(`${path} does not hold a ${SEAL_KEY_BYTES}-byte key; remove it to make anew`);
  }
  return key;
}

/**
 * Writes a new key to `path` only if none is there: written whole and synced under a temporary
 * name first, then linked into place, which fails if another instance was first. So the file is
 * never seen half written, and every instance ends up with the one key that got there.
 */
function createKey(path: string): Buffer {
  const key = randomBytes(SEAL_KEY_BYTES);
  const temporary = `${path}.${randomUUID()}.tmp`;
  writeNewFileSynced(temporary, key, 0o600);
  try {
    linkSync(temporary, path);
    return key;
  } catch (error) {
    if (!isCode(error, 'EEXIST')) throw error;
    return readKey(path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The seal key of `dataDir`, made on first use (mode 0600). */
export function openSealKey(dataDir: string): Buffer {
  const path = join(dataDir, SEAL_KEY_FILE);
  try {
    return readKey(path);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
  return createKey(path);
}
