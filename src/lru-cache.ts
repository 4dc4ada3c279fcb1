/**
 * A small bounded map with least-recently-used eviction (a `Map` keeps insertion order, so
 * re-inserting on use moves an entry to the young end). Bounds the memos of erx.
 *
 * The oldest entry is found by one iterator kept across evictions. A `Map` keeps a deleted entry's
 * slot until it is rebuilt, and a fresh iterator walks past every such slot at the old end: about
 * 8 µs an eviction at 16,384 entries, against well under 1 µs for the kept one, which passes each
 * slot once. A `Map` iterator sees entries added after it was made (after a `clear` too), so it
 * always yields the oldest entry left: every one before it was yielded and evicted.
 */

/** The weight of a value; every entry weighs 1 unless the cache is given a `weigh`. */
export type Weigh<V> = (value: V) => number;

/** A map holding at most `capacity` of weight, evicting the least recently used. */
export class LruCache<V> {
  readonly capacity: number;
  private readonly entries = new Map<string, V>();
  private readonly weigh: Weigh<V> | undefined;
  private weight = 0;
  /** Walks the entries from the oldest; each entry it yields is evicted. */
  private oldest: IterableIterator<string> = this.entries.keys();

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
    // Called only while an entry is held, so the iterator never finishes (it would stay finished).
    const next = this.oldest.next();
    if (next.done !== true) this.delete(next.value);
  }
}
