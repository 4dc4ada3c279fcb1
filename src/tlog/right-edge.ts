/**
 * The right edge of a tree kept in memory: the hashes of the complete subtrees that make up its
 * leaves, largest first (the stored hashes `subtreeIndexes(0, size)` lists). With them a leaf is
 * appended and the root computed without reading anything: appending leaf n consumes the edge's
 * subtrees its trailing 1 bits complete (Go's `tlog.StoredHashesForRecordHash`, which reads the
 * same hashes from storage), and the root folds the edge from the right (`tlog.TreeHash`).
 */
import { emptyTreeHash, HASH_SIZE, nodeHash } from './hash.js';
import { subtreeHash, subtreeIndexes } from './subtree.js';
import { TlogError } from './tlog-error.js';
import { isIndex, trailingZeros } from './tree-math.js';

/** A tree's size and right edge; {@link append} grows it by one leaf. */
export class RightEdge {
  #size: number;
  readonly #edge: Uint8Array[];

  private constructor(size: number, edge: Uint8Array[]) {
    this.#size = size;
    this.#edge = edge;
  }

  /** The stored-hash indexes of the edge of a tree of `size` leaves, to read for {@link of}. */
  static indexes(size: number): number[] {
    if (!isIndex(size)) throw new TlogError('out_of_range', 'tree size is not a safe integer');
    return subtreeIndexes(0, size, []);
  }

  /** The edge of a tree of `size` leaves from the stored hashes at {@link indexes}, in order. */
  static of(size: number, hashes: readonly Uint8Array[]): RightEdge {
    if (hashes.length !== RightEdge.indexes(size).length) {
      throw new TlogError('out_of_range', 'edge hashes do not match the tree size');
    }
    return new RightEdge(size, [...hashes]);
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Appends the leaf of hash `leafHash`: the hashes to store from `storedHashIndex(0, size)` on
   * (the leaf hash, then one per subtree it completes).
   */
  append(leafHash: Uint8Array): Buffer[] {
    if (leafHash.length !== HASH_SIZE) throw new TlogError('malformed_hash', 'leaf hash length');
    let h: Buffer = Buffer.from(leafHash);
    const stored = [h];
    for (let i = trailingZeros(this.#size + 1); i > 0; i--) {
      h = nodeHash(this.#edge.pop()!, h);
      stored.push(h);
    }
    this.#edge.push(h);
    this.#size += 1;
    return stored;
  }

  /** The RFC 6962 root of the tree. */
  root(): Buffer {
    if (this.#size === 0) return emptyTreeHash();
    return Buffer.from(subtreeHash(0, this.#size, this.#edge, 0).hash);
  }
}
