/** WAL checkpoints on a background thread: pages reach the database file without the writer. */
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { insertNew } from '../../../test/store-contract/fixture.js';
import {
  BackgroundCheckpoints,
  FALLBACK_AUTOCHECKPOINT,
  SQLITE_AUTOCHECKPOINT,
} from './background-checkpoints.js';
import { GroupCommit } from './group-commit.js';
import { openSqliteStore } from './sqlite-store.js';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'erx-checkpoints-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A WAL database with one table, and a way to commit about `pages` pages to it. */
function openWal(file: string): { db: Database.Database; commitPages: (pages: number) => void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS t (x BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO t (x) VALUES (randomblob(3000))');
  return {
    db,
    commitPages: (pages) => {
      for (let i = 0; i < pages; i++) insert.run();
    },
  };
}

/**
 * The checkpoint sequence number in the header of the WAL `file` (big-endian, bytes 12–15): SQLite
 * adds one each time a writer starts the WAL over.
 */
function walGeneration(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(16);
    return readSync(fd, header, 0, 16, 0) === 16 ? header.readUInt32BE(12) : 0;
  } finally {
    closeSync(fd);
  }
}

function sizeOf(file: string): number {
  return statSync(file).size;
}

/** Waits up to `ms` for `check`, polling. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) {
    if (check()) return true;
  }
  return check();
}

describe('background WAL checkpoints', () => {
  it('copy committed pages into the database file while the writer does not checkpoint', () =>
    withDir(async (dir) => {
      // Control: 300 pages stay in the WAL, below SQLite's own threshold of 1,000.
      const plain = openWal(join(dir, 'plain.sqlite'));
      const plainBefore = sizeOf(join(dir, 'plain.sqlite'));
      plain.commitPages(300);
      await sleep(400);
      assert.equal(sizeOf(join(dir, 'plain.sqlite')), plainBefore);
      plain.db.close();

      const file = join(dir, 'erx.sqlite');
      const { db, commitPages } = openWal(file);
      const checkpoints = new BackgroundCheckpoints(db, file);
      try {
        const before = sizeOf(file);
        commitPages(300);
        assert.ok(
          await eventually(() => sizeOf(file) > before + 200 * 3000, 5000),
          'the pages reached the database file',
        );
        assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), FALLBACK_AUTOCHECKPOINT);
      } finally {
        await checkpoints.stop();
      }
      // Stopped, the writer checkpoints by itself again, as SQLite does by default.
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), SQLITE_AUTOCHECKPOINT);
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM t').get(), { n: 300 });
      db.close();
    }));

  it('start the WAL over under a steady stream of commits, with the writer never checkpointing', () =>
    withDir(async (dir) => {
      const file = join(dir, 'erx.sqlite');
      const { db } = openWal(file);
      // The writer's own checkpoints are out of reach: only the thread can start the WAL over.
      const bounds = { restartFrames: 300, fallbackFrames: 1_000_000 };
      const checkpoints = new BackgroundCheckpoints(db, file, bounds);
      const commits = new GroupCommit(db, checkpoints.hold);
      const insert = db.prepare('INSERT INTO t (x) VALUES (randomblob(3000))');
      const restarts = new Set<number>();
      try {
        assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), bounds.fallbackFrames);
        // Batches of about 8 pages, one after the other, each committed with its fsync.
        const end = Date.now() + 20_000;
        while (restarts.size < 4 && Date.now() < end) {
          await Promise.all(Array.from({ length: 8 }, () => commits.run(() => insert.run())));
          restarts.add(walGeneration(`${file}-wal`));
        }
        assert.ok(restarts.size >= 4, `the WAL started over ${restarts.size - 1} times`);
      } finally {
        await checkpoints.stop();
      }
      db.close();
    }));

  it('hand checkpoints back to the writer when the thread fails', () =>
    withDir(async (dir) => {
      const file = join(dir, 'erx.sqlite');
      const { db } = openWal(file);
      const warnings: string[] = [];
      const onWarning = (warning: Error): void => void warnings.push(warning.message);
      process.on('warning', onWarning);
      try {
        // A file the thread cannot open: it fails at once.
        const checkpoints = new BackgroundCheckpoints(db, join(dir, 'missing', 'erx.sqlite'));
        await checkpoints.stop();
        assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), SQLITE_AUTOCHECKPOINT);
        await eventually(() => warnings.length > 0, 1000);
        assert.match(warnings.join('\n'), /checkpoints are back on the committing connection/);
      } finally {
        process.off('warning', onWarning);
        db.close();
      }
    }));

  it('run under a store opened for a service, which keeps every write', () =>
    withDir(async (dir) => {
      const file = join(dir, 'erx.sqlite');
      const store = openSqliteStore(file, { backgroundCheckpoints: true });
      const ids: string[] = [];
      try {
        const before = sizeOf(file);
        for (let i = 0; i < 120; i++) ids.push((await insertNew(store)).row.id);
        assert.ok(await eventually(() => sizeOf(file) > before, 5000));
        // A checkpoint changes no row: a chain remembered before one stays valid after it.
        await store.readChain(ids[0]!);
        const remembered = (await store.readChain(ids[0]!))?.state;
        const mark = sizeOf(file);
        for (let i = 0; i < 120; i++) ids.push((await insertNew(store)).row.id);
        assert.ok(await eventually(() => sizeOf(file) > mark, 5000));
        assert.equal((await store.readChain(ids[0]!))?.state, remembered);
      } finally {
        await store.close();
      }
      const reopened = openSqliteStore(file);
      try {
        assert.equal(await reopened.prescriptions.count(), ids.length);
        for (const id of ids) assert.equal((await reopened.readChain(id))?.state?.events.length, 1);
      } finally {
        await reopened.close();
      }
    }));
});
