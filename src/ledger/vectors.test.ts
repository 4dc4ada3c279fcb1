import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadVectors, vectorFiles } from '../../test/support/ledger/vectors.js';

test('the ledger vector folder is not empty and every file holds vectors', () => {
  const files = vectorFiles();
  assert.ok(files.length >= 5, `expected the ledger vector files, found ${files.length}`);
  for (const file of files) assert.ok(loadVectors(file).length > 0, file);
});
