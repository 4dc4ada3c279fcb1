/**
 * How the tree core reads stored hashes: the store answers the hashes at the given stored hash
 * indexes (see `stored-hash-index.ts`), in the order asked. Nothing here knows the store.
 */
import { HASH_SIZE } from './hash.js';
import { TlogError } from './tlog-error.js';

/**
 * Reads the stored hashes at `indexes` (storage indexes, increasing where the caller can), one
 * 32-byte hash per index, in the same order; rejects when one is missing.
 */
export type HashReader = (indexes: readonly number[]) => Promise<readonly Uint8Array[]>;

/** Calls `reader` and checks that it answered one 32-byte hash per index. */
export async function readHashes(
  reader: HashReader,
  indexes: readonly number[],
): Promise<Uint8Array[]> {
  if (indexes.length === 0) return [];
  const hashes = await reader(indexes);
  if (hashes.length !== indexes.length) {
    throw new TlogError('hash_reader', `asked ${indexes.length} hashes, got ${hashes.length}`);
  }
  for (const h of hashes) {
    if (!(h instanceof Uint8Array) || h.length !== HASH_SIZE) {
      throw new TlogError('hash_reader', 'a stored hash is not 32 bytes');
    }
  }
  return [...hashes];
}
