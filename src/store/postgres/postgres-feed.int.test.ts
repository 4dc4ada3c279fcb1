/**
 * The event feed on PostgreSQL beyond the store contract: rows are numbered only once committed,
 * so an append that commits late (an older instance's, which names no feed column) is numbered
 * after what a reader has already passed, never skipped; one instance numbers at a time; a
 * backlog is numbered in bounded transactions; a version-3 database is numbered by migration 4.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { appendHeld, decideNext, insertNew } from '../../../test/store-contract/fixture.js';
import { postgresSuite, withConnection, withTestDatabase } from '../../../test/support/postgres.js';
import type { TestDatabase } from '../../../test/support/postgres.js';
import {
  assertMigratedFeed,
  UP_TO_VERSION_3,
  VERSION_3_EVENTS,
  VERSION_3_PRESCRIPTIONS,
} from '../../../test/store-contract/version-3.js';
import { LATEST_SCHEMA_VERSION } from '../migrations.js';
import type { FeedViewer } from '../types.js';
import { FEED_BATCH, FEED_LOCK_KEY } from './feed.js';
import { openPostgresStore } from './postgres-store.js';
import type { PostgresStore } from './postgres-store.js';

const ISSUER: FeedViewer = { role: 'prescriber', sub: 'HIN|doc1' };
const PHARMACIST: FeedViewer = { role: 'pharmacist', sub: 'HIN|pharma1' };

/** How an instance of version 3 inserts an event: only the columns it knows. */
const OLDER_INSERT = `INSERT INTO events (prescription_id, seq, id, parent_hash, body, hash, signature)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`;

/** Runs `fn` with `count` migrated stores (instances) on one fresh database. */
async function withInstances(
  count: number,
  fn: (stores: PostgresStore[], db: TestDatabase) => Promise<void>,
): Promise<void> {
  await withTestDatabase(async (db) => {
    const stores = Array.from({ length: count }, () => openPostgresStore(db.url, { poolSize: 2 }));
    try {
      for (const s of stores) await s.migrate();
      await fn(stores, db);
    } finally {
      for (const s of stores) await s.close();
    }
  });
}

const positions = (rows: readonly { position: number; event: { id: string } }[]): string[] =>
  rows.map((r) => `${r.position}:${r.event.id}`);

await postgresSuite('postgres store: the event feed', () => {
  it('numbers an append that commits late after what a reader has passed, never skipping it', () =>
    withInstances(2, async ([store, other], db) => {
      // Numbered one by one: a run orders what it numbers by prescription id, not by commit.
      const late = await insertNew(store!);
      assert.equal(await store!.feed.sequence(), 1);
      const early = await insertNew(store!);
      assert.equal(await store!.feed.sequence(), 1);
      await withConnection(db.url, async (older) => {
        // An older instance inserts first and commits last.
        await older.query('BEGIN');
        await older.query(OLDER_INSERT, [
          late.row.id,
          1,
          'late-1',
          late.create.event.hash,
          '{"actor":"HIN|pharma1","type":"lock"}',
          'hash-late-1',
          'sig',
        ]);
        await older.query('UPDATE prescriptions SET head_hash = $2 WHERE id = $1', [
          late.row.id,
          'hash-late-1',
        ]);
        const next = await appendHeld(other!, early.row.id, decideNext());
        assert.equal(await other!.feed.sequence(), 1);
        // A reader polls now: it sees up to the head, and its cursor moves there.
        const head = await store!.feed.head();
        assert.equal(head, 3);
        const rows = await store!.feed.read(ISSUER, 0, head, 7);
        assert.deepEqual(positions(rows), [
          `1:${late.create.event.id}`,
          `2:${early.create.event.id}`,
          `3:${next.id}`,
        ]);
        await older.query('COMMIT');
      });
      assert.equal(await store!.feed.sequence(), 1);
      const head = await store!.feed.head();
      assert.deepEqual(positions(await store!.feed.read(ISSUER, 3, head, 7)), ['4:late-1']);
      // What the older instance did not write was read out of its body.
      assert.deepEqual(positions(await other!.feed.read(PHARMACIST, 0, head, 7)), ['4:late-1']);
      const appended = await appendHeld(other!, late.row.id, decideNext());
      assert.equal(appended.seq, 2);
    }));

  it('numbers nothing while another instance numbers, and everything once it is done', () =>
    withInstances(1, async ([store], db) => {
      const { row } = await insertNew(store!);
      await appendHeld(store!, row.id, decideNext());
      await withConnection(db.url, async (numbering) => {
        await numbering.query('SELECT pg_advisory_lock($1)', [FEED_LOCK_KEY]);
        assert.equal(await store!.feed.sequence(), 0);
        assert.equal(await store!.feed.head(), 0);
        await numbering.query('SELECT pg_advisory_unlock($1)', [FEED_LOCK_KEY]);
      });
      assert.equal(await store!.feed.sequence(), 2);
      assert.equal(await store!.feed.sequence(), 0);
      assert.equal(await store!.feed.head(), 2);
    }));

  it('numbers a backlog larger than one batch in chain order, without gaps', () =>
    withInstances(1, async ([store], db) => {
      const { row } = await insertNew(store!);
      const count = FEED_BATCH + 5;
      await withConnection(db.url, async (older) => {
        await older.query(
          `INSERT INTO events (prescription_id, seq, id, parent_hash, body, hash, signature)
           SELECT $1, s, 'backlog-' || s, 'parent-' || s, '{"type":"lock"}', 'hash-' || s, 'sig'
           FROM generate_series(1, $2::int) AS s`,
          [row.id, count],
        );
      });
      assert.equal(await store!.feed.sequence(), count + 1);
      assert.equal(await store!.feed.head(), count + 1);
      await withConnection(db.url, async (c) => {
        const wrong = await c.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM events WHERE feed_seq IS DISTINCT FROM seq + 1',
        );
        assert.equal(wrong.rows[0]?.n, 0);
      });
    }));

  it('numbers the events of a version-3 database when migration 4 runs, each chain in order', () =>
    withTestDatabase(async (db) => {
      await withConnection(db.url, async (c) => {
        await c.query(
          'CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)',
        );
        for (const m of UP_TO_VERSION_3) {
          await c.query(m.postgres);
          await c.query('INSERT INTO schema_migrations VALUES ($1, $2)', [m.version, 0]);
        }
        for (const p of VERSION_3_PRESCRIPTIONS) {
          await c.query(
            `INSERT INTO prescriptions (id, issuer, issuer_actor, issued_at, medicaments, head_hash, terms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [p.id, p.issuer, p.issuer_actor, p.issued_at, p.medicaments, p.head_hash, p.terms],
          );
        }
        for (const e of VERSION_3_EVENTS) {
          await c.query(OLDER_INSERT, [
            e.prescription_id,
            e.seq,
            e.id,
            e.parent_hash,
            e.body,
            e.hash,
            e.signature,
          ]);
        }
      });
      const store = openPostgresStore(db.url, { poolSize: 2 });
      try {
        assert.equal(await store.schemaVersion(), 3);
        await store.migrate();
        assert.equal(await store.schemaVersion(), LATEST_SCHEMA_VERSION);
        // Numbered by the migration itself: nothing is left for the numbering to do.
        assert.equal(await store.feed.sequence(), 0);
        await assertMigratedFeed(store);
      } finally {
        await store.close();
      }
    }));
});
