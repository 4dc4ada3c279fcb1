/**
 * A small bounded map with least-recently-used eviction (a `Map` keeps insertion order, so
 * re-inserting on use moves an entry to the young end). Bounds the memos of erx.
 */

/** A map holding at most `capacity` entries, evicting the least recently used. */
export class LruCache<V> {
  readonly capacity: number;
  private readonly entries = new Map<string, V>();

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, marking it as recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Stores `value` under `key`, evicting the least recently used entry when full. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.entries.delete(key);
  }
}
