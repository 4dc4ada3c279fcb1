/**
 * The event feed on SQLite beyond the store contract: a file written before the feed is numbered
 * by migration 4, an older process's insert is numbered in its own transaction, a write undone in
 * a shared batch leaves no gap, and a caught-up read walks the position index.
 */
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  appendHeld,
  decideNext,
  idempotencyRow,
  insertNew,
  newPrescription,
} from '../../../test/store-contract/fixture.js';
import {
  assertMigratedFeed,
  UP_TO_VERSION_3,
  VERSION_3_EVENTS,
  VERSION_3_PRESCRIPTIONS,
} from '../../../test/store-contract/version-3.js';
import { LATEST_SCHEMA_VERSION } from '../migrations.js';
import { IdempotencyRace } from '../races.js';
import type { FeedViewer } from '../types.js';
import { SQLITE_FEED_SQL } from './feed.js';
import { migrateSqlite } from './migrate.js';
import { openSqliteStore } from './sqlite-store.js';
import { prepareStatements } from './statements.js';

const ISSUER: FeedViewer = { role: 'prescriber', sub: 'HIN|doc1' };

/** Runs `fn` with a fresh database file, removed afterwards. */
async function withFile(fn: (file: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'erx-sqlite-feed-'));
  try {
    await fn(join(dir, 'erx.sqlite'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `file` as erx at schema version 3 left it, with the version-3 rows. */
function writeVersion3(file: string): void {
  const db = new Database(file);
  try {
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT',
    );
    for (const m of UP_TO_VERSION_3) {
      db.exec(m.sqlite);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(m.version, 1_700_000_000_000);
    }
    const p = db.prepare(
      `INSERT INTO prescriptions (id, issuer, issuer_actor, issued_at, medicaments, head_hash, terms)
       VALUES (@id, @issuer, @issuer_actor, @issued_at, @medicaments, @head_hash, @terms)`,
    );
    for (const row of VERSION_3_PRESCRIPTIONS) p.run(row);
    const e = db.prepare(
      `INSERT INTO events (prescription_id, seq, id, parent_hash, body, hash, signature)
       VALUES (@prescription_id, @seq, @id, @parent_hash, @body, @hash, @signature)`,
    );
    for (const row of VERSION_3_EVENTS) e.run(row);
  } finally {
    db.close();
  }
}

describe('sqlite store: the event feed', () => {
  it('numbers the events of a version-3 file when migration 4 runs, each chain in order', () =>
    withFile(async (file) => {
      writeVersion3(file);
      const store = openSqliteStore(file);
      try {
        assert.equal(await store.schemaVersion(), LATEST_SCHEMA_VERSION);
        await assertMigratedFeed(store);
      } finally {
        await store.close();
      }
    }));

  it("numbers an older process's insert, which names no feed column, in its transaction", () =>
    withFile(async (file) => {
      const store = openSqliteStore(file);
      const older = new Database(file);
      try {
        const { row, create } = await insertNew(store);
        // As an instance of version 3 inserts: the columns it knows.
        older
          .prepare(
            `INSERT INTO events (prescription_id, seq, id, parent_hash, body, hash, signature)
             VALUES (?, 1, 'older-1', ?, ?, 'hash-older-1', 'sig')`,
          )
          .run(row.id, create.event.hash, '{"actor":"HIN|pharma1","type":"lock"}');
        older
          .prepare("UPDATE prescriptions SET head_hash = 'hash-older-1' WHERE id = ?")
          .run(row.id);
        const next = await appendHeld(store, row.id, decideNext());
        const rows = await store.feed.read(ISSUER, 0, await store.feed.head(), 10);
        assert.deepEqual(
          rows.map((r) => [r.position, r.event.id]),
          [
            [1, create.event.id],
            [2, 'older-1'],
            [3, next.id],
          ],
        );
        const pharmacist = { role: 'pharmacist', sub: 'HIN|pharma1' } as const;
        assert.deepEqual(
          (await store.feed.read(pharmacist, 0, 3, 10)).map((r) => r.event.id),
          ['older-1'],
        );
      } finally {
        older.close();
        await store.close();
      }
    }));

  it('leaves no gap when a write of a shared batch is undone', () =>
    withFile(async (file) => {
      const store = openSqliteStore(file);
      try {
        const prescriptions = [
          await insertNew(store),
          await insertNew(store),
          await insertNew(store),
        ];
        const taken = idempotencyRow('HIN|pharma1', 'key-1', prescriptions[0]!.row.id, 'x');
        await appendHeld(store, prescriptions[0]!.row.id, decideNext({ idempotency: () => taken }));
        // Started in one turn, so their writes share a batch; the middle one's remembered call
        // collides after its event was inserted, and is undone with it.
        const results = await Promise.allSettled(
          prescriptions.map(({ row }, i) =>
            appendHeld(
              store,
              row.id,
              decideNext(i === 1 ? { idempotency: (e) => ({ ...taken, eventId: e.id }) } : {}),
            ),
          ),
        );
        assert.deepEqual(
          results.map((r) => r.status),
          ['fulfilled', 'rejected', 'fulfilled'],
        );
        const refused = results[1];
        assert.ok(refused?.status === 'rejected' && refused.reason instanceof IdempotencyRace);
        const p = newPrescription();
        await store.insertPrescription(p.row, p.create);
        const head = await store.feed.head();
        assert.equal(head, 3 + 1 + 2 + 1);
        const rows = await store.feed.read(ISSUER, 0, head, 100);
        assert.deepEqual(
          rows.map((r) => r.position),
          [1, 2, 3, 4, 5, 6, 7],
        );
        assert.equal(rows.at(-1)?.event.id, p.create.event.id);
      } finally {
        await store.close();
      }
    }));

  it('reads a page through the position index, and numbers by one probe of it', () => {
    const db = new Database(':memory:');
    try {
      migrateSqlite(db);
      const plan = (sql: string, params: object = {}): string[] =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map(
          (r) => r.detail,
        );
      const noScan = (steps: string[]): boolean =>
        steps.every((s) => !s.startsWith('SCAN') && !s.includes('TEMP B-TREE'));
      for (const sql of [SQLITE_FEED_SQL.issuer, SQLITE_FEED_SQL.pharmacist]) {
        const steps = plan(sql, { sub: 's', after: 0, upTo: 1, limit: 1 });
        assert.match(steps[0]!, /^SEARCH e USING INDEX events_feed_seq \(feed_seq>\? AND/);
        assert.ok(noScan(steps), steps.join('\n'));
      }
      // Whether the pharmacist acted earlier is looked up along the chain, by its primary key.
      const along = plan(SQLITE_FEED_SQL.pharmacist, { sub: 's', after: 0, upTo: 1, limit: 1 });
      assert.ok(
        along.some((s) => s.includes('(prescription_id=? AND seq<?)')),
        along.join('\n'),
      );
      const insert = prepareStatements(db).insertEvent.source;
      const row = { prescription_id: 'p', seq: 0, id: 'e', parent_hash: null, body: '{}' };
      const steps = plan(insert, { ...row, hash: 'h', signature: 's' });
      assert.ok(noScan(steps), steps.join('\n'));
      assert.ok(
        steps.some((s) => s.includes('COVERING INDEX events_feed_seq')),
        steps.join('\n'),
      );
      assert.ok(noScan(plan(SQLITE_FEED_SQL.head)));
      assert.ok(noScan(plan(SQLITE_FEED_SQL.issued.replaceAll('?', "''"))));
    } finally {
      db.close();
    }
  });
});
