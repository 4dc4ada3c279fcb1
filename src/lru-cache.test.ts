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
