/**
 * The log tree's stored hashes as one instance reads them: those used lately kept in the
 * verification memory (`VerificationMemory.treeHashes`), the rest read from the store, every read
 * asked for in one turn of the event loop made in one query. A stored hash never changes once
 * written (the tree only grows), so a hash kept is the hash stored; nothing needs invalidating.
 * Growths hand in the hashes they wrote, so receipts and the next growth, which read about the
 * tree's newest edge, find them here.
 */
import type { LruCache } from '../lru-cache.js';
import { ownedBytes } from '../owned-bytes.js';
import type { LogStore } from '../store/log.js';
import type { HashReader } from '../tlog/index.js';

interface Asked {
  readonly indexes: readonly number[];
  readonly resolve: (read: Map<number, Uint8Array>) => void;
  readonly reject: (error: unknown) => void;
}

/** One instance's reader of the tree's stored hashes. */
export class TreeHashes {
  readonly #log: LogStore;
  /** The hashes kept, least recently used out first (about 200 bytes each). */
  readonly #kept: LruCache<Uint8Array, number>;
  /** Reads asked for in this turn of the event loop, not yet sent to the store. */
  #asked: Asked[] = [];

  constructor(log: LogStore, kept: LruCache<Uint8Array, number>) {
    this.#log = log;
    this.#kept = kept;
  }

  /** Reads stored hashes (a {@link HashReader}); a hash the store does not hold rejects. */
  readonly read: HashReader = async (indexes) => {
    const kept = indexes.map((index) => this.#kept.get(index));
    const missing = indexes.filter((_, k) => kept[k] === undefined);
    if (missing.length === 0) return kept as Uint8Array[];
    const read = await this.#fetch(missing);
    return indexes.map((index, k) => kept[k] ?? read.get(index)!);
  };

  /** Keeps the hashes a growth has written (only once the store has them). */
  remember(written: readonly { index: number; hash: Uint8Array }[]): void {
    for (const { index, hash } of written) this.#keep(index, hash);
  }

  #keep(index: number, hash: Uint8Array): void {
    // A hash grown here is a view of a shared slab; kept, it would keep all 8 KiB of it.
    this.#kept.set(index, ownedBytes(hash));
  }

  /** Reads `indexes` from the store with every read asked for in this turn, and keeps them. */
  #fetch(indexes: readonly number[]): Promise<Map<number, Uint8Array>> {
    return new Promise((resolve, reject) => {
      this.#asked.push({ indexes, resolve, reject });
      if (this.#asked.length === 1) setImmediate(() => void this.#readAsked());
    });
  }

  async #readAsked(): Promise<void> {
    const asked = this.#asked;
    this.#asked = [];
    const all = [...new Set(asked.flatMap((a) => a.indexes))];
    try {
      const hashes = await this.#log.readHashes(all);
      const read = new Map(all.map((index, k) => [index, hashes[k]!]));
      for (const [index, hash] of read) this.#keep(index, hash);
      for (const a of asked) a.resolve(read);
    } catch (error) {
      // One reader's missing hash must not fail the others read with it: each on its own then.
      if (asked.length === 1) asked[0]!.reject(error);
      else for (const a of asked) this.#fetchAlone(a);
    }
  }

  #fetchAlone(asked: Asked): void {
    this.#log
      .readHashes(asked.indexes)
      .then(
        (hashes) => asked.resolve(new Map(asked.indexes.map((index, k) => [index, hashes[k]!]))),
        asked.reject,
      );
  }
}
