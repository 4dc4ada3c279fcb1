/** Group commit on a real database file: shared COMMITs, lone failures, acknowledgement after disk. */
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { clientRow } from '../../../test/store-contract/fixture.js';
import { GroupCommit } from './group-commit.js';
import { openSqliteStore } from './sqlite-store.js';

let dir: string;
let file: string;
let db: Database.Database;

/** A connection like the store's: WAL, every commit synced. */
function connect(): Database.Database {
  const c = new Database(file);
  c.pragma('journal_mode = WAL');
  c.pragma('synchronous = FULL');
  c.pragma('busy_timeout = 5000');
  return c;
}

/** The row ids another connection sees, i.e. what is committed. */
function committedIds(): number[] {
  const other = new Database(file, { readonly: true });
  try {
    return (other.prepare('SELECT id FROM t ORDER BY id').all() as { id: number }[]).map(
      (r) => r.id,
    );
  } finally {
    other.close();
  }
}

/** Counts the COMMITs `db` executes. */
function countCommits(c: Database.Database): { readonly count: number } {
  const counter = { count: 0 };
  const exec = c.exec.bind(c);
  c.exec = (sql: string) => {
    if (/^\s*COMMIT\b/i.test(sql)) counter.count++;
    return exec(sql);
  };
  return counter;
}

function insert(c: Database.Database, id: number): () => number {
  return () => Number(c.prepare('INSERT INTO t (id) VALUES (?)').run(id).lastInsertRowid);
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('GroupCommit', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erx-group-commit-'));
    file = join(dir, 'db.sqlite');
    db = connect();
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
  });

  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits 50 concurrent writes in one COMMIT, and all of them', async () => {
    const commits = countCommits(db);
    const group = new GroupCommit(db);
    const results = await Promise.all(range(50).map((id) => group.run(insert(db, id))));
    assert.deepEqual(results, range(50));
    assert.equal(commits.count, 1);
    assert.deepEqual(committedIds(), range(50));
  });

  it('rejects only the write that fails and commits the others', async () => {
    db.exec('INSERT INTO t (id) VALUES (7)');
    const group = new GroupCommit(db);
    const results = await Promise.allSettled([5, 6, 7, 8].map((id) => group.run(insert(db, id))));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    const failure = results[2];
    assert.ok(failure?.status === 'rejected');
    assert.equal((failure.reason as { code?: string }).code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
    assert.deepEqual(committedIds(), [5, 6, 7, 8]);
  });

  it('resolves no write before another connection sees it committed', async () => {
    const group = new GroupCommit(db);
    const seen = await Promise.all(
      range(20).map((id) => group.run(insert(db, id)).then(() => committedIds().includes(id))),
    );
    assert.deepEqual(seen, Array<boolean>(20).fill(true));
  });

  it('rejects every write of a batch whose COMMIT fails, and keeps none of them', async () => {
    // A deferred foreign key is checked by the COMMIT, not by the write.
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE child (parent INTEGER REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)');
    const group = new GroupCommit(db);
    const results = await Promise.allSettled([
      group.run(insert(db, 1)),
      group.run(() => db.prepare('INSERT INTO child (parent) VALUES (99)').run()),
      group.run(insert(db, 2)),
    ]);
    for (const r of results) {
      assert.ok(r.status === 'rejected');
      assert.equal((r.reason as { code?: string }).code, 'SQLITE_CONSTRAINT_FOREIGNKEY');
    }
    assert.equal(db.inTransaction, false);
    assert.deepEqual(committedIds(), []);
    assert.equal(await group.run(insert(db, 3)), 3);
    assert.deepEqual(committedIds(), [3]);
  });

  it('runs `committed` after the COMMIT and before the answer, never for a refused write', async () => {
    db.exec('INSERT INTO t (id) VALUES (7)');
    const group = new GroupCommit(db);
    const calls: string[] = [];
    const settled = await Promise.allSettled(
      [6, 7].map((id) =>
        group
          .run(insert(db, id), (value) => {
            calls.push(`committed ${value}, visible: ${committedIds().includes(value)}`);
          })
          .then((value) => calls.push(`answered ${value}`)),
      ),
    );
    assert.deepEqual(
      settled.map((r) => r.status),
      ['fulfilled', 'rejected'],
    );
    assert.deepEqual(calls, ['committed 6, visible: true', 'answered 6']);
  });

  it('writes inside a transaction the caller opened, which the caller commits', async () => {
    const commits = countCommits(db);
    const group = new GroupCommit(db);
    db.exec('BEGIN IMMEDIATE');
    await group.run(insert(db, 1));
    await group.run(insert(db, 2));
    await assert.rejects(group.run(insert(db, 2)), { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    assert.ok(db.inTransaction);
    assert.deepEqual(committedIds(), []);
    db.exec('COMMIT');
    assert.equal(commits.count, 1);
    assert.deepEqual(committedIds(), [1, 2]);
  });

  it('waits for a transaction the caller opened before committing writes queued earlier', async () => {
    const group = new GroupCommit(db);
    const queued = group.run(insert(db, 1));
    db.exec('BEGIN IMMEDIATE');
    db.exec('INSERT INTO t (id) VALUES (2)');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(committedIds(), []);
    db.exec('COMMIT');
    await queued;
    assert.deepEqual(committedIds(), [1, 2]);
  });

  it('commits the queued writes when flushed before the connection closes', async () => {
    const group = new GroupCommit(db);
    const queued = range(3).map((id) => group.run(insert(db, id)));
    group.flush();
    db.close();
    assert.deepEqual(await Promise.all(queued), range(3));
    assert.deepEqual(committedIds(), range(3));
  });
  describe('a sealer', () => {
    /** A sealer whose waiting ids are inserted after each batch's writes. */
    function sealer(c: Database.Database) {
      const seen = { waiting: [] as number[], acked: [] as number[][], failures: [] as unknown[] };
      return Object.assign(seen, {
        pending: () => seen.waiting.length > 0,
        run: () => {
          const ids = seen.waiting;
          seen.waiting = [];
          for (const id of ids) insert(c, id)();
          return () => seen.acked.push(ids);
        },
        failed: (error: unknown) => seen.failures.push(error),
      });
    }

    it('writes what waits with the next batch, in its COMMIT, before the batch is answered', async () => {
      const commits = countCommits(db);
      const group = new GroupCommit(db);
      const sealed = sealer(db);
      group.seal(sealed);
      sealed.waiting.push(100, 101);
      const order: string[] = [];
      await group.run(insert(db, 1)).then(() => order.push(`write after ${sealed.acked.length}`));
      assert.deepEqual(order, ['write after 1']);
      assert.deepEqual(sealed.acked, [[100, 101]]);
      assert.equal(commits.count, 1);
      assert.deepEqual(committedIds(), [1, 100, 101]);
    });

    it('commits what waits in a batch of its own when asked to, with no write', async () => {
      const group = new GroupCommit(db);
      const sealed = sealer(db);
      group.seal(sealed);
      sealed.waiting.push(100);
      group.soon();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(sealed.acked, [[100]]);
      assert.deepEqual(committedIds(), [100]);
    });

    it('that throws leaves the batch committed without its writes, and is told', async () => {
      const group = new GroupCommit(db);
      const sealed = sealer(db);
      group.seal(sealed);
      // 1 exists already: the sealer's second insert fails after its first.
      sealed.waiting.push(50, 1);
      await group.run(insert(db, 1));
      assert.equal(sealed.failures.length, 1);
      assert.deepEqual(sealed.acked, []);
      assert.deepEqual(committedIds(), [1]);
    });

    it('is told when the batch it wrote in fails to commit', async () => {
      db.pragma('foreign_keys = ON');
      db.exec(
        'CREATE TABLE child (parent INTEGER REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)',
      );
      const group = new GroupCommit(db);
      const sealed = sealer(db);
      group.seal(sealed);
      sealed.waiting.push(100);
      const write = group.run(() => db.prepare('INSERT INTO child (parent) VALUES (99)').run());
      await assert.rejects(write);
      assert.equal(sealed.failures.length, 1);
      assert.deepEqual(sealed.acked, []);
      assert.deepEqual(committedIds(), []);
    });
  });
});

describe('SqliteStore with group commit', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erx-group-commit-store-'));
    file = join(dir, 'erx.sqlite');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('commits the pending batch on close', async () => {
    const store = openSqliteStore(file);
    const added = ['a', 'b'].map((id) => store.clients.add(clientRow(id)));
    await store.close();
    await Promise.all(added);
    const reopened = openSqliteStore(file);
    try {
      assert.deepEqual((await reopened.clients.list()).map((c) => c.clientId).sort(), ['a', 'b']);
    } finally {
      await reopened.close();
    }
  });
});
