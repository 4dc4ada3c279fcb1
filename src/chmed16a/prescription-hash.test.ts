import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { prescriptionHash } from './prescription-hash.js';

interface HashVector {
  name: string;
  source: string;
  input: string;
  expected: { hash: string };
}

const VECTOR_DIR = new URL('../../test/vectors/chmed16a/hash/', import.meta.url);

const vectors = readdirSync(VECTOR_DIR)
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => JSON.parse(readFileSync(new URL(f, VECTOR_DIR), 'utf8')) as HashVector[]);

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
