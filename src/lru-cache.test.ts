import fc from 'fast-check';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { LruCache } from './lru-cache.js';

test('evicts the least recently used entry when full', () => {
  const cache = new LruCache<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.get('a'), 1);
  cache.set('c', 3);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('c'), 3);
  assert.equal(cache.size, 2);
  cache.delete('a');
  assert.equal(cache.size, 1);
});

test('refuses a capacity below one', () => {
  assert.throws(() => new LruCache(0), RangeError);
});

test('with a weight, bounds the sum of the weights and skips a value heavier than all', () => {
  const cache = new LruCache<string>(10, (value) => value.length);
  cache.set('a', 'xxxx');
  cache.set('b', 'xxxx');
  assert.equal(cache.totalWeight, 8);
  assert.equal(cache.get('a'), 'xxxx');
  cache.set('c', 'xxxxx');
  // 'b' was the least recently used; dropping it is enough to fit 'c'.
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.totalWeight, 9);
  cache.set('a', 'x');
  assert.equal(cache.totalWeight, 6);
  cache.set('d', 'x'.repeat(11));
  assert.equal(cache.get('d'), undefined);
  assert.equal(cache.totalWeight, 6);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.equal(cache.totalWeight, 0);
});

/** The same cache written the plain way: an array from least to most recently used. */
class PlainLru {
  readonly order: [string, number][] = [];
  constructor(readonly capacity: number) {}
  get(key: string): number | undefined {
    const at = this.order.findIndex(([k]) => k === key);
    if (at < 0) return undefined;
    const [entry] = this.order.splice(at, 1);
    this.order.push(entry!);
    return entry![1];
  }
  set(key: string, value: number): void {
    this.delete(key);
    this.order.push([key, value]);
    if (this.order.length > this.capacity) this.order.shift();
  }
  delete(key: string): void {
    const at = this.order.findIndex(([k]) => k === key);
    if (at >= 0) this.order.splice(at, 1);
  }
}

test('evicts exactly what a plain least-recently-used list would, through gets, deletes and clears', () => {
  const key = fc.integer({ min: 0, max: 8 }).map((n) => `k${n}`);
  // Mostly sets and gets, so that runs fill the cache and reorder it between evictions.
  const step = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({ op: fc.constant('set' as const), key, value: fc.integer() }),
    },
    { weight: 6, arbitrary: fc.record({ op: fc.constant('get' as const), key }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), key }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const) }) },
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.array(step, { minLength: 20, maxLength: 200, size: 'max' }),
      (capacity, steps) => {
        const cache = new LruCache<number>(capacity);
        let plain = new PlainLru(capacity);
        for (const s of steps) {
          if (s.op === 'set') {
            cache.set(s.key, s.value);
            plain.set(s.key, s.value);
          } else if (s.op === 'get') {
            assert.equal(cache.get(s.key), plain.get(s.key));
          } else if (s.op === 'delete') {
            cache.delete(s.key);
            plain.delete(s.key);
          } else {
            cache.clear();
            plain = new PlainLru(capacity);
          }
          assert.equal(cache.size, plain.order.length);
        }
        // What is left, and that it is exactly that: every key the plain list holds is held.
        for (const [k, v] of [...plain.order]) assert.equal(cache.get(k), v);
      },
    ),
  );
});

test('keeps no growing memory while its entries change but nothing is evicted', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const cache = new LruCache<number>(1_000);
  // One eviction, then the cache is emptied far below its capacity and never evicts again.
  for (let i = 0; i <= 1_000; i++) cache.set(`k${i}`, i);
  for (let i = 0; i <= 1_000; i++) cache.delete(`k${i}`);
  gc();
  const before = process.memoryUsage().heapUsed;
  // About 60 MB when the kept iterator held every table the map was rebuilt into.
  for (let i = 0; i < 1_000_000; i++) {
    cache.set(`x${i % 50}`, i);
    cache.delete(`x${(i + 25) % 50}`);
  }
  gc();
  const grownMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  assert.equal(cache.size, 25);
  assert.ok(grownMb < 10, `the heap grew by ${grownMb.toFixed(1)} MB`);
});
