/** The SQLite store beyond the store contract: its connection and the chains it has read. */
import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { appendHeld, decideNext, insertNew } from '../../../test/store-contract/fixture.js';
import type { ChainState, Store } from '../types.js';
import { openSqliteStore, PAGE_CACHE_KIB, SqliteStore } from './sqlite-store.js';

function freshFile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'erx-sqlite-'));
  return { dir, file: join(dir, 'erx.sqlite') };
}

/**
 * Runs `fn` with a store on a fresh file; `alsoClose` registers what else `fn` opens on the file
 * (another store, a raw connection), closed before the store and the file are removed.
 */
async function withFreshFile(
  fn: (
    file: string,
    store: Store,
    alsoClose: <T extends { close(): unknown }>(opened: T) => T,
  ) => Promise<void>,
): Promise<void> {
  const { dir, file } = freshFile();
  const store = openSqliteStore(file);
  const opened: { close(): unknown }[] = [];
  try {
    await fn(file, store, (o) => {
      opened.push(o);
      return o;
    });
  } finally {
    for (const o of opened) await o.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('sqlite store: the connection', () => {
  it('keeps a page cache of PAGE_CACHE_KIB, not the 16 MB the driver compiles in', async () => {
    const db = new Database(':memory:');
    assert.equal(db.pragma('cache_size', { simple: true }), -16_000);
    const store = new SqliteStore(db);
    try {
      assert.equal(db.pragma('cache_size', { simple: true }), -PAGE_CACHE_KIB);
      assert.ok(PAGE_CACHE_KIB < 16_000);
    } finally {
      await store.close();
    }
  });
});

describe('sqlite store: chains read before', () => {
  it('answers the same frozen chain from its second read on, while nothing changed it', () =>
    withFreshFile(async (_file, store) => {
      const { row } = await insertNew(store);
      const once = (await store.readChain(row.id))?.state;
      const first = (await store.readChain(row.id))?.state;
      const again = (await store.readChain(row.id))?.state;
      assert.ok(first !== undefined);
      assert.notEqual(first, once, 'a chain read once is not remembered (chain-memo.ts)');
      assert.deepEqual(first, once);
      assert.equal(again, first);
      assert.ok(Object.isFrozen(first) && Object.isFrozen(first.events));
      assert.ok(first.events.every((e) => Object.isFrozen(e)));
      assert.ok(Object.isFrozen(first.prescription.medicaments));
      // Its own append replaces it: the next read has the new event.
      const event = await appendHeld(store, row.id, decideNext());
      const after = (await store.readChain(row.id))?.state;
      assert.notEqual(after, first);
      assert.deepEqual(after?.events.at(-1), event);
    }));

  it('remembers the chain its own append committed, as the database holds it', () =>
    withFreshFile(async (file, store, alsoClose) => {
      const reader = alsoClose(openSqliteStore(file));
      const { row } = await insertNew(store);
      await store.readChain(row.id);
      assert.equal(
        (await store.readChain(row.id))?.state,
        (await store.readChain(row.id))?.state,
        'remembered',
      );
      const event = await appendHeld(store, row.id, decideNext());
      const after = (await store.readChain(row.id))?.state;
      assert.ok(after !== undefined && Object.isFrozen(after) && Object.isFrozen(after.events));
      assert.equal((await store.readChain(row.id))?.state, after);
      assert.deepEqual(after.events.at(-1), event);
      // Exactly what another connection reads from the file.
      assert.deepEqual(after, (await reader.readChain(row.id))?.state);
    }));

  it('decides on a chain not read before as committed, and remembers none of it', () =>
    withFreshFile(async (_file, store) => {
      const { row, create } = await insertNew(store);
      const seen: ChainState[] = [];
      const event = await appendHeld(store, row.id, async (state) => {
        seen.push(state);
        return decideNext()(state);
      });
      assert.equal(seen.length, 1);
      assert.deepEqual(seen[0]?.events, [create.event]);
      // What is read next is the whole chain from the file.
      assert.deepEqual((await store.readChain(row.id))?.state?.events, [create.event, event]);
      // A remembered chain is decided on as it is, signatures and all.
      const remembered = (await store.readChain(row.id))?.state;
      await appendHeld(store, row.id, async (state) => {
        assert.equal(state, remembered);
        return decideNext()(state);
      });
    }));

  it('does not remember an append when another connection committed while it was decided', () =>
    withFreshFile(async (file, store, alsoClose) => {
      const editor = alsoClose(new Database(file));
      const { row } = await insertNew(store);
      await store.readChain(row.id);
      await appendHeld(store, row.id, async (state) => {
        // Edited beside erx after the chain was read for this append, before it commits.
        editor
          .prepare('UPDATE events SET body = ? WHERE prescription_id = ? AND seq = 0')
          .run('{"edited":true}', row.id);
        // A read meanwhile (another call) notices the edit first.
        await store.readChain(row.id);
        return decideNext()(state);
      });
      const chain = (await store.readChain(row.id))?.state;
      assert.equal(chain?.events.length, 2);
      assert.equal(chain?.events[0]?.body, '{"edited":true}');
    }));

  it('reads rows changed by another connection at once (tampering is never hidden)', () =>
    withFreshFile(async (file, store, alsoClose) => {
      const editor = alsoClose(new Database(file));
      const { row } = await insertNew(store);
      const other = await insertNew(store);
      const before = (await store.readChain(row.id))?.state;
      const untouched = (await store.readChain(other.row.id))?.state;
      editor
        .prepare('UPDATE events SET body = ? WHERE prescription_id = ? AND seq = 0')
        .run('{"edited":true}', row.id);
      assert.equal((await store.readChain(row.id))?.state?.events[0]?.body, '{"edited":true}');
      assert.equal(before?.events[0]?.body, `{"id":"${before?.events[0]?.id}","seq":0}`);
      editor.prepare('UPDATE prescriptions SET head_hash = ? WHERE id = ?').run('h', row.id);
      assert.equal((await store.readChain(row.id))?.state?.prescription.headHash, 'h');
      // Any commit elsewhere makes every chain read anew, not only the one changed.
      const reread = (await store.readChain(other.row.id))?.state;
      assert.notEqual(reread, untouched);
      assert.deepEqual(reread, untouched);
    }));
});
