/**
 * The key that seals verified chain heads (`service/verified-heads.ts`): random bytes in a file of
 * the data directory, never in the database, so whoever can write rows but not read this file
 * cannot make a seal. Instances sharing a database share the data directory's keys.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEAL_KEY_BYTES } from '../service/index.js';

/** The seal key of `dataDir`, made on first use (mode 0600). */
export function openSealKey(dataDir: string): Buffer {
  const path = join(dataDir, 'verified-heads.key');
  try {
    const key = readFileSync(path);
    if (key.length === SEAL_KEY_BYTES) return key;
    throw new Error(`${path} does not hold a ${SEAL_KEY_BYTES}-byte key`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(SEAL_KEY_BYTES);
  try {
    // `wx`: another instance starting at the same moment keeps its own file; read back the winner.
    writeFileSync(path, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(path);
  }
}
