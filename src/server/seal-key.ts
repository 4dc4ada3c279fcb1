/**
 * The key that seals verified chain heads (`service/verification/verified-heads.ts`): random bytes in a file of
 * the data directory, never in the database, so whoever can write rows but not read this file
 * cannot make a seal (`./key-file.ts`).
 */
import { SEAL_KEY_BYTES } from '../service/index.js';
import { openKeyFile } from './key-file.js';

/** The file name of the seal key in the data directory. */
export const SEAL_KEY_FILE = 'verified-heads.key';

/** The seal key of `dataDir`, made on first use (mode 0600). */
export function openSealKey(dataDir: string): Buffer {
  return openKeyFile(dataDir, SEAL_KEY_FILE, SEAL_KEY_BYTES);
}
