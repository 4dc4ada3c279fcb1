/**
 * The hashes to store when several leaves are appended in one transaction: leaf n+1 may need the
 * hashes leaf n adds, which are not stored yet, so reads past what is stored are answered from
 * the batch itself.
 */
import type { HashReader } from './hash-reader.js';
import { storedHashIndex } from './stored-hash-index.js';
import { storedHashesForRecord } from './stored-hashes.js';
import { TlogError } from './tlog-error.js';
import { isIndex } from './tree-math.js';

/**
 * The hashes that appending `leafHashes` to a tree of `start` leaves adds, in storage order from
 * `storedHashIndex(0, start)`; `reader` is asked only for hashes already stored.
 */
export async function storedHashesForRecords(
  start: number,
  leafHashes: readonly Uint8Array[],
  reader: HashReader,
): Promise<Buffer[]> {
  if (!isIndex(start)) throw new TlogError('out_of_range', 'start is not a safe integer');
  const base = storedHashIndex(0, start);
  const pending: Buffer[] = [];
  const overlay: HashReader = async (indexes) => {
    const stored = indexes.filter((i) => i < base);
    const read = stored.length > 0 ? await reader(stored) : [];
    let next = 0;
    return indexes.map((i) => (i < base ? read[next++]! : pending[i - base]!));
  };
  for (let i = 0; i < leafHashes.length; i++) {
    pending.push(...(await storedHashesForRecord(start + i, leafHashes[i]!, overlay)));
  }
  return pending;
}
