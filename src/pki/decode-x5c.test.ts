import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeX5c } from './decode-x5c.js';

test('decodes exactly two canonical standard-base64 strings', () => {
  const pair = decodeX5c(['AQID', 'BAUG']);
  assert.deepEqual([...(pair?.leaf ?? [])], [1, 2, 3]);
  assert.deepEqual([...(pair?.root ?? [])], [4, 5, 6]);
});

test('refuses every other shape and spelling', () => {
  for (const value of [
    undefined,
    'AQID',
    [],
    ['AQID'],
    ['AQID', 'BAUG', 'BAUG'],
    ['AQID', 7],
    ['AQID', ''],
    ['AQI', 'BAUG'],
    ['AQ==', 'AR=='],
    ['A-_D', 'BAUG'],
    ['AQ ID', 'BAUG'],
    ['AQID\n', 'BAUG'],
  ]) {
    assert.equal(decodeX5c(value), undefined, JSON.stringify(value));
  }
});
