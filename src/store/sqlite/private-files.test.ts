/** The database and its `-wal` and `-shm` are erx's user's alone, like the keys (issue #39, 7). */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { databaseFiles, DATABASE_FILE_MODE } from './private-files.js';
import { openSqliteStore } from './sqlite-store.js';

/** Runs `fn` with a fresh file in a directory readable by everyone (0755). */
async function inOpenDirectory(fn: (file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'erx-modes-'));
  chmodSync(dir, 0o755);
  try {
    await fn(join(dir, 'erx.sqlite'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function modes(file: string): Record<string, string> {
  return Object.fromEntries(
    databaseFiles(file).map((path) => [path, (statSync(path).mode & 0o777).toString(8)]),
  );
}

function expected(file: string): Record<string, string> {
  const mode = DATABASE_FILE_MODE.toString(8);
  return Object.fromEntries(databaseFiles(file).map((path) => [path, mode]));
}

describe('the SQLite database files', () => {
  it('are created 0600 in an existing 0755 directory, the -wal and -shm too', async () => {
    await inOpenDirectory(async (file) => {
      const store = openSqliteStore(file);
      try {
        // The migrations have written: SQLite made the companions of the open WAL database.
        for (const path of databaseFiles(file)) assert.ok(existsSync(path), path);
        assert.deepEqual(modes(file), expected(file));
      } finally {
        await store.close();
      }
    });
  });

  it('are narrowed to 0600 when an older erx left them readable to others', async () => {
    await inOpenDirectory(async (file) => {
      await openSqliteStore(file).close();
      for (const path of databaseFiles(file)) {
        if (!existsSync(path)) writeFileSync(path, '');
        chmodSync(path, 0o644);
      }
      const store = openSqliteStore(file);
      try {
        assert.deepEqual(modes(file), expected(file));
      } finally {
        await store.close();
      }
    });
  });
});
