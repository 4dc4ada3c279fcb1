/** The one `prescriptionHash` (SPEC.md §3): the vectors every create event's hash is checked by. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { prescriptionHash } from './prescription-hash.js';
import { vectorFolder } from '../../test/support/vectors.js';

interface HashVector {
  name: string;
  source: string;
  input: string;
  expected: { hash: string };
}

const vectors = vectorFolder<HashVector>('chmed16a/hash').map(({ vector }) => vector);

describe('prescriptionHash (SPEC.md §3)', () => {
  test('the vector folder is not empty', () => {
    assert.ok(vectors.length > 0, 'no vectors in test/vectors/chmed16a/hash');
  });

  for (const vector of vectors) {
    test(vector.name, () => {
      assert.ok(vector.source.length > 0);
      assert.equal(prescriptionHash(vector.input), vector.expected.hash);
    });
  }

  test('is 64 lowercase hex characters', () => {
    assert.match(prescriptionHash('CHMED16A1'), /^[0-9a-f]{64}$/);
  });
});
