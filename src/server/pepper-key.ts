/**
 * Where the token service's pepper (`auth/pepper.ts`) comes from: `ERX_PEPPER` when set, else a
 * key file of the data directory made at first start (`./key-file.ts`). Every instance and tool
 * over one database must use the same one: another pepper authenticates no stored client or token.
 */
import { Pepper } from '../auth/index.js';
import type { Config } from '../config/index.js';
import { openKeyFile } from './key-file.js';

/** The file name of the pepper in the data directory (when `ERX_PEPPER` is not set). */
export const PEPPER_FILE = 'token-pepper.key';

/** Bytes of a pepper made for the key file. */
const PEPPER_FILE_BYTES = 32;

/** The configured pepper: `ERX_PEPPER`'s UTF-8 bytes, or the data directory's key file. */
export function openPepper(config: Pick<Config, 'dataDir' | 'pepper'>): Pepper {
  if (config.pepper !== undefined) return new Pepper(Buffer.from(config.pepper, 'utf8'));
  return new Pepper(openKeyFile(config.dataDir, PEPPER_FILE, PEPPER_FILE_BYTES));
}
