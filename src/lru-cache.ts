/**
 * A small bounded map with least-recently-used eviction (a `Map` keeps insertion order, so
 * re-inserting on use moves an entry to the young end). Bounds the memos of erx.
 *
 * The oldest entry is found by one iterator kept across evictions. A `Map` keeps a deleted entry's
 * slot until it is rebuilt, and a fresh iterator walks past every such slot at the old end: about
 * 8 µs an eviction at 16,384 entries, against well under 1 µs for the kept one, which passes each
 * slot once. A `Map` iterator sees entries added after it was made, so it always yields the oldest
 * entry left: every one before it was yielded and evicted.
 *
 * But an iterator keeps every table its `Map` was rebuilt into since it last moved (V8 chains them
 * so that it can follow), and a cache that stops evicting while its entries keep changing would
 * keep an ever longer chain: 60 MB after a million changes to a map of 25 entries. So the iterator
 * is dropped once the changes since it last moved outnumber the entries (and on `clear`), and made
 * again at the next eviction: what it keeps stays within a few times the map's own table, and a
 * fresh walk comes at most once per as many changes as there are entries.
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
  private oldest: IterableIterator<string> | undefined;
  /** Entries set or deleted since {@link oldest} last moved. */
  private changes = 0;

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
    this.changed(2);
    return value;
  }

  /** Stores `value` under `key`, evicting the least recently used entries while over capacity. */
  set(key: string, value: V): void {
    this.delete(key);
    if (this.weigh === undefined) {
      this.entries.set(key, value);
      this.changed(1);
      if (this.entries.size > this.capacity) this.evictOldest();
      return;
    }
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.entries.set(key, value);
    this.changed(1);
    this.weight += weight;
    while (this.weight > this.capacity) this.evictOldest();
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.changed(1);
    if (this.weigh !== undefined) this.weight -= this.weigh(value);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
    this.oldest = undefined;
  }

  private changed(count: number): void {
    this.changes += count;
    if (this.changes > this.entries.size + 16) this.oldest = undefined;
  }

  private evictOldest(): void {
    // Called only while an entry is held, so the iterator never finishes (it would stay finished).
    this.oldest ??= this.entries.keys();
    const next = this.oldest.next();
    this.changes = 0;
    if (next.done !== true) this.delete(next.value);
  }
}
