/**
 * An in-memory transparency log for tests: the stored hashes in one array in Go's storage order
 * (what a store keeps in a table), appended through `storedHashesForRecord`.
 */
import type { HashReader } from '../../../src/tlog/hash-reader.js';
import { leafHash } from '../../../src/tlog/hash.js';
import { storedHashIndex } from '../../../src/tlog/stored-hash-index.js';
import { storedHashesForRecord } from '../../../src/tlog/stored-hashes.js';

/** A log whose stored hashes live in an array. */
export class MemoryTree {
  readonly hashes: Buffer[] = [];
  /** Every index read, for tests that bound the reads. */
  readonly reads: number[][] = [];
  size = 0;

  readonly reader: HashReader = async (indexes) => {
    this.reads.push([...indexes]);
    return indexes.map((i) => {
      const h = this.hashes[i];
      if (h === undefined) throw new Error(`no stored hash ${i}`);
      return h;
    });
  };

  /** Appends a leaf by its leaf hash. */
  async appendHash(hash: Uint8Array): Promise<void> {
    if (storedHashIndex(0, this.size) !== this.hashes.length) throw new Error('layout broken');
    this.hashes.push(...(await storedHashesForRecord(this.size, hash, this.reader)));
    this.size++;
  }

  /** Appends a leaf by its data. */
  async append(data: Uint8Array): Promise<void> {
    await this.appendHash(leafHash(data));
  }
}

/** A tree of `n` leaves whose data are the bytes of `leaf <i>`. */
export async function memoryTree(n: number): Promise<MemoryTree> {
  const tree = new MemoryTree();
  for (let i = 0; i < n; i++) await tree.append(Buffer.from(`leaf ${i}`));
  return tree;
}
