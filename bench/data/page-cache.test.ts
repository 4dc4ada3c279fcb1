import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sqlitePath } from '../../src/server/open-store.js';
import { readThrough, warmDatabase } from './page-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'erx-page-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('warming a data set', () => {
  test('readThrough reads a file of several chunks to its end', () => {
    const file = join(dir, 'big');
    const size = 8 * 1024 * 1024 * 2 + 12_345;
    writeFileSync(file, Buffer.alloc(size, 7));
    assert.equal(readThrough(file), size);
  });

  test('warmDatabase reads the database and its WAL, and an empty directory is nothing', () => {
    const dataDir = join(dir, 'data');
    assert.throws(() => readThrough(join(dataDir, 'missing')), { code: 'ENOENT' });
    const empty = mkdtempSync(join(dir, 'empty-'));
    assert.equal(warmDatabase(empty), 0);
    const withDb = mkdtempSync(join(dir, 'db-'));
    writeFileSync(sqlitePath(withDb), Buffer.alloc(4096));
    assert.equal(warmDatabase(withDb), 4096);
    writeFileSync(`${sqlitePath(withDb)}-wal`, Buffer.alloc(1000));
    assert.equal(warmDatabase(withDb), 5096);
  });
});
