/**
 * A bounded map with least-recently-used eviction: the bound of every memo of erx. A thin face over
 * the `lru-cache` package (docs/decisions.md, "Bounded maps from lru-cache"), so the memos keep one
 * small interface: a capacity in entries, or in weight with `weigh`.
 */
import { LRUCache } from 'lru-cache';

/** The weight of a value; every entry weighs 1 unless the cache is given a `weigh`. */
export type Weigh<V> = (value: V) => number;

/**
 * A map holding at most `capacity` of weight, evicting the least recently used; keyed by strings
 * unless `K` says numbers.
 */
export class LruCache<V extends NonNullable<unknown>, K extends string | number = string> {
  readonly capacity: number;
  readonly #entries: LRUCache<K, V>;
  readonly #weighed: boolean;

  /**
   * `capacity` bounds the number of entries, or, with `weigh`, the sum of their weights. An entry
   * heavier than the whole capacity is not kept.
   */
  constructor(capacity: number, weigh?: Weigh<V>) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
    this.#weighed = weigh !== undefined;
    this.#entries =
      weigh === undefined
        ? new LRUCache<K, V>({ max: capacity })
        : new LRUCache<K, V>({
            maxSize: capacity,
            sizeCalculation: (v) => Math.max(1, Math.ceil(weigh(v))),
          });
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The sum of the weights held (the number of entries without `weigh`). */
  get totalWeight(): number {
    return this.#weighed ? this.#entries.calculatedSize : this.#entries.size;
  }

  /** The value under `key`, marking it as recently used. */
  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Stores `value` under `key`, evicting the least recently used entries while over capacity. */
  set(key: K, value: V): void {
    this.#entries.set(key, value);
  }

  /** Forgets `key`. */
  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
  }
}
