/**
 * A small bounded map with least-recently-used eviction (a `Map` keeps insertion order, so
 * re-inserting on use moves an entry to the young end). Bounds the memos of erx.
 */

/** The weight of a value; every entry weighs 1 unless the cache is given a `weigh`. */
export type Weigh<V> = (value: V) => number;

/** A map holding at most `capacity` of weight, evicting the least recently used. */
export class LruCache<V> {
  readonly capacity: number;
  private readonly entries = new Map<string, V>();
  private readonly weigh: Weigh<V> | undefined;
  private weight = 0;

  /**
   * `capacity` bounds the number of entries, or, with `weigh`, the sum of their weights. An entry
   * heavier than the whole capacity is not kept.
   */
  constructor(capacity: number, weigh?: Weigh<V>) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
    this.weigh = weigh;
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The sum of the weights held (the number of entries without `weigh`). */
  get totalWeight(): number {
    return this.weigh === undefined ? this.entries.size : this.weight;
  }

  /** The value under `key`, marking it as recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Stores `value` under `key`, evicting the least recently used entries while over capacity. */
  set(key: string, value: V): void {
    this.delete(key);
    if (this.weigh === undefined) {
      this.entries.set(key, value);
      if (this.entries.size > this.capacity) this.evictOldest();
      return;
    }
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.entries.set(key, value);
    this.weight += weight;
    while (this.weight > this.capacity) this.evictOldest();
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    if (this.weigh !== undefined) this.weight -= this.weigh(value);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.delete(oldest.value);
  }
}
