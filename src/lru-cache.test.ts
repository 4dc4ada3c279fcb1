import assert from 'node:assert/strict';
import { test } from 'node:test';
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
