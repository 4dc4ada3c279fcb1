/** Bytes kept for long own exactly their memory, never a shared slab. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ownedBytes, ownedUtf8 } from './owned-bytes.js';

describe('owned bytes', () => {
  test('copies a 32-byte view of a pooled slab into a buffer of 32 bytes', () => {
    const view = Buffer.from(Uint8Array.from({ length: 32 }, (_, i) => i));
    assert.ok(view.buffer.byteLength > 32, 'Buffer.from hands out a view of a slab');
    const owned = ownedBytes(view);
    assert.equal(owned.buffer.byteLength, 32);
    assert.deepEqual([...owned], [...view]);
    view[0] = 99;
    assert.equal(owned[0], 0, 'the copy does not share the slab');
  });

  test('keeps bytes that already own their buffer as they are', () => {
    const own = new Uint8Array(32).fill(7);
    assert.equal(ownedBytes(own), own);
  });

  test('encodes text in UTF-8 into a buffer of exactly its length', () => {
    for (const text of ['', 'abc', 'Grüezi 💊', 'x'.repeat(5_000)]) {
      const bytes = ownedUtf8(text);
      assert.equal(bytes.buffer.byteLength, Buffer.byteLength(text, 'utf8'));
      assert.equal(bytes.toString('utf8'), text);
      assert.ok(Buffer.from(text, 'utf8').equals(bytes));
    }
  });
});
