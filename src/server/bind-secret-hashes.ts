/**
 * Client secret hashes written before they were bound to the pepper (`scrypt$…`) are bound at the
 * first start that has a pepper, and never again: an unbound hash found later was written by
 * someone without the pepper (or restored from an old backup), and binding it would let it
 * authenticate. A marker file in the data directory, outside the database, records that the
 * binding was done; instances sharing the data directory share it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretHashUpgrade, TokenService } from '../auth/index.js';

/** The marker file: present once older secret hashes have been bound. */
export const SECRETS_BOUND_FILE = 'client-secrets-bound';

/**
 * Binds older secret hashes (see the module comment) unless the data directory says it was done;
 * `undefined` when it was. Remove the marker to bind once more (docs/operations.md).
 */
export async function bindOlderSecretHashesOnce(
  dataDir: string,
  tokens: TokenService,
): Promise<SecretHashUpgrade | undefined> {
  const marker = join(dataDir, SECRETS_BOUND_FILE);
  if (existsSync(marker)) return undefined;
  const result = await tokens.upgradeSecretHashes();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const unreadable =
    result.unreadable.length > 0 ? ` unreadable: ${result.unreadable.join(' ')}` : '';
  writeFileSync(
    marker,
    `${new Date().toISOString()} bound ${result.upgraded} older client secret hashes to the pepper;${unreadable}\n`,
    { mode: 0o600 },
  );
  return result;
}
