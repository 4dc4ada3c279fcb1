/**
 * The transparency log's growths over a real SQLite store: in the events' own COMMIT (what a
 * running service does), and after it (the path of stores that cannot), what a growth reads and
 * when it stops.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { appendHeld, decideNext, insertNew } from '../../test/store-contract/fixture.js';
import type { LogStore } from '../store/log.js';
import { openSqliteStore, SqliteStore } from '../store/sqlite/sqlite-store.js';
import {
  ed25519NoteSigner,
  ed25519NoteVerifier,
  ed25519PrivateKeyFromSeed,
  ed25519VerifierKey,
  RightEdge,
  storedHashIndex,
  verifyTlogProof,
} from '../tlog/index.js';
import { firstContradicted } from './chain-in-log.js';
import { GROWTH_LEAVES } from './grow-log.js';
import { leafEntry, splitReceiptExtra } from './leaf-entry.js';
import { leafHash, parseTlogProof } from '../tlog/index.js';
import type { LogIdentity } from './grow-log.js';
import { TransparencyLog } from './transparency-log.js';
import { VerificationMemory } from '../memory/verification-memory.js';

const ORIGIN = 'erx.test/log';
/** The fixtures' events have made-up hashes and signatures: every one is taken in. */
const ACCEPT = async (): Promise<boolean> => true;

function identity(): LogIdentity {
  const key = ed25519PrivateKeyFromSeed(randomBytes(32));
  return {
    origin: ORIGIN,
    signer: ed25519NoteSigner(ORIGIN, key),
    verifierKey: ed25519VerifierKey(ORIGIN, key),
  };
}

/** Counts the reads of the newest checkpoint and of the next leaves `log` answers from now on. */
function countReads(log: LogStore): { heads: number; leaves: number } {
  const counts = { heads: 0, leaves: 0 };
  const head = log.head.bind(log);
  const readCandidates = log.readCandidates.bind(log);
  log.head = () => {
    counts.heads += 1;
    return head();
  };
  log.readCandidates = (after, limit) => {
    counts.leaves += 1;
    return readCandidates(after, limit);
  };
  return counts;
}

/** Adds `count` prescriptions, one numbered event each, a thousand at a time. */
async function addEvents(store: SqliteStore, count: number): Promise<void> {
  for (let done = 0; done < count; done += 1_000) {
    const batch = Math.min(1_000, count - done);
    await Promise.all(Array.from({ length: batch }, () => insertNew(store)));
  }
}

/** The root of the first `size` leaves computed afresh from the leaves as the log took them in. */
async function rootOfEvents(store: SqliteStore, size: number): Promise<Buffer> {
  const edge = RightEdge.of(0, []);
  for (const leaf of await store.log.readLeafRows(0, size)) edge.append(leafHash(leafEntry(leaf)));
  assert.equal(edge.size, size);
  return edge.root();
}

/** Waits until `check` holds, trying every few ms (at most 5 s). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await check());) {
    if (Date.now() - started > 5_000) throw new Error('condition not met in 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A SQLite store over `file` whose COMMITs are counted. */
function countedStore(file: string): { store: SqliteStore; commits: () => number } {
  const db = new Database(file);
  let commits = 0;
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    if (sql === 'COMMIT') commits += 1;
    return exec(sql);
  };
  return { store: new SqliteStore(db), commits: () => commits };
}

describe('TransparencyLog growth in memory', () => {
  let store: SqliteStore;
  let commits: () => number;
  let log: TransparencyLog;
  let id: LogIdentity;
  const errors: unknown[] = [];

  beforeEach(() => {
    ({ store, commits } = countedStore(':memory:'));
    id = identity();
    errors.length = 0;
    log = new TransparencyLog(store, id, Date.now, new VerificationMemory(), {
      onError: (e) => errors.push(e),
    });
    log.admitWith(ACCEPT);
  });

  afterEach(async () => {
    await log.close();
    await store.close();
  });

  test('receipts come from the growth after the writes, which commits with the next batch', async () => {
    const written = await Promise.all([insertNew(store), insertNew(store), insertNew(store)]);
    log.appended();
    const policy = { origin: ORIGIN, log: [ed25519NoteVerifier(id.verifierKey)] };
    for (const { create } of written) {
      const receipt = await log.receipt(create.event.id, create.event.signature);
      assert.ok(receipt !== undefined, 'a receipt in time');
      const extra = splitReceiptExtra(parseTlogProof(receipt).extra!);
      const proved = verifyTlogProof(receipt, leafHash(extra.entry(create.event.hash)), policy);
      assert.equal(proved.checkpoint.size, 3);
    }
    // Not written yet: the checkpoint served is the newest written, whose tiles exist.
    assert.equal(await log.checkpoint(), undefined);
    const before = commits();
    const next = insertNew(store);
    await next;
    // One COMMIT held the next write and the growth.
    assert.equal(commits(), before + 1);
    const head = await store.log.head();
    assert.equal(head?.size, 3);
    assert.deepEqual(head?.root, await rootOfEvents(store, 3));
    assert.equal((await log.checkpoint())?.size, 3);
    assert.deepEqual(errors, []);
  });

  test('a growth with no write after it commits on its own a moment later', async () => {
    await insertNew(store);
    log.appended();
    await eventually(async () => (await store.log.head())?.size === 1);
    assert.deepEqual((await store.log.head())?.root, await rootOfEvents(store, 1));
  });

  test('growths after appends are spaced: appends within the spacing wait for one growth', async () => {
    await log.close();
    log = new TransparencyLog(store, id, Date.now, new VerificationMemory(), {
      growthSpacingMs: 60_000,
    });
    log.admitWith(ACCEPT);
    const sizes: number[] = [];
    const appendLater = store.log.appendLater.bind(store.log);
    store.log.appendLater = (growth) => {
      sizes.push(growth.checkpoint.size);
      return appendLater(growth);
    };
    await insertNew(store);
    log.appended();
    await eventually(async () => sizes.length === 1);
    const later = [];
    for (let k = 0; k < 4; k++) {
      later.push(await insertNew(store));
      log.appended();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(sizes, [1]);
    assert.equal(await log.receipt(later[3]!.create.event.id, 'jws', 0), undefined);
    // A growth asked for outright is not held back.
    await log.grow();
    assert.deepEqual(sizes, [1, 5]);
  });

  test('a growth that fails leaves the writes alone, and the next takes its events in', async () => {
    const sign = id.signer.sign;
    let failing = true;
    id.signer.sign = (text) => {
      if (failing) throw new Error('no signature now');
      return sign(text);
    };
    await insertNew(store);
    await log.grow();
    assert.equal(errors.length, 1);
    failing = false;
    await insertNew(store);
    await log.grow();
    await eventually(async () => (await store.log.head())?.size === 2);
    assert.deepEqual((await store.log.head())?.root, await rootOfEvents(store, 2));
  });

  test('a growth the store could not write is grown again from the stored tree', async () => {
    await insertNew(store);
    await log.grow();
    await eventually(async () => (await store.log.head())?.size === 1);
    const appendLater = store.log.appendLater.bind(store.log);
    let refuse = true;
    store.log.appendLater = (growth) => {
      if (!refuse) return appendLater(growth);
      refuse = false;
      return Promise.reject(new Error('not written'));
    };
    await insertNew(store);
    await log.grow();
    await eventually(async () => errors.length === 1);
    // Its hashes were never stored: the next growth starts again from the tree of size 1.
    await Promise.all([insertNew(store), insertNew(store)]);
    await log.grow();
    await eventually(async () => (await store.log.head())?.size === 4);
    assert.deepEqual((await store.log.head())?.root, await rootOfEvents(store, 4));
  });
});

describe('TransparencyLog growth in memory by two processes on one file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'erx-log-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('each grows the same tree over every event, in feed order, whoever wrote what', async () => {
    const file = join(dir, 'erx.db');
    const id = identity();
    const stores = [openSqliteStore(file), openSqliteStore(file)];
    const logs = stores.map((s) => {
      const one = new TransparencyLog(s, id, Date.now, new VerificationMemory());
      one.admitWith(ACCEPT);
      return one;
    });
    try {
      // Turns alternate, so each process grows over events the other numbered and grew.
      for (let round = 0; round < 12; round++) {
        const k = round % 2;
        await Promise.all(Array.from({ length: 1 + (round % 3) }, () => insertNew(stores[k]!)));
        await logs[k]!.grow();
      }
      for (const log of logs) await log.close();
      for (const store of stores) await store.close();
      const reopened = openSqliteStore(file);
      try {
        const head = await reopened.log.head();
        assert.equal(head?.size, 24);
        assert.deepEqual(head?.root, await rootOfEvents(reopened, 24));
        const hashes = await reopened.log.readHashes([...Array(storedHashIndex(0, 24)).keys()]);
        assert.equal(hashes.length, storedHashIndex(0, 24));
      } finally {
        await reopened.close();
      }
    } finally {
      for (const log of logs) await log.close();
      for (const store of stores) await store.close();
    }
  });
});

describe("TransparencyLog growth after the events' COMMIT", () => {
  let store: SqliteStore;
  let log: TransparencyLog;

  beforeEach(() => {
    store = openSqliteStore(':memory:');
    log = new TransparencyLog(store, identity(), Date.now, new VerificationMemory(), {
      growInMemory: false,
    });
    log.admitWith(ACCEPT);
  });

  afterEach(async () => {
    await log.close();
    await store.close();
  });

  test('a growth that took every numbered event reads the leaves once and looks no further', async () => {
    await addEvents(store, 3);
    const reads = countReads(store.log);
    await log.grow();
    assert.deepEqual(reads, { heads: 1, leaves: 1 });
    assert.equal((await store.log.head())?.size, 3);
  });

  test('a backlog larger than one growth takes is taken in whole by growths in turn', async () => {
    await addEvents(store, GROWTH_LEAVES + 1);
    const reads = countReads(store.log);
    await log.grow();
    assert.equal(reads.leaves, 2);
    assert.equal((await store.log.head())?.size, GROWTH_LEAVES + 1);
  });
});

describe("TransparencyLog's check of a chain (verify and every decision)", () => {
  let db: Database.Database;
  let store: SqliteStore;
  let id: LogIdentity;
  const logs: TransparencyLog[] = [];

  /** A log over the store with its own, empty memory: every proof reads the tree again. */
  function freshLog(): TransparencyLog {
    const one = new TransparencyLog(store, id, Date.now, new VerificationMemory(), {
      growInMemory: false,
    });
    one.admitWith(ACCEPT);
    logs.push(one);
    return one;
  }

  /** A prescription of `length` events, the rest of the tree other prescriptions' creates. */
  async function chainOfLength(length: number): Promise<string> {
    const { row } = await insertNew(store);
    for (let k = 1; k < length; k++) await appendHeld(store, row.id, decideNext());
    return row.id;
  }

  /** The tree's hashes a fresh log reads to check the chain of `prescriptionId`. */
  async function hashesRead(prescriptionId: string): Promise<number> {
    const fresh = freshLog();
    await fresh.checkpoint();
    let read = 0;
    const readHashes = store.log.readHashes.bind(store.log);
    store.log.readHashes = (indexes) => {
      read += indexes.length;
      return readHashes(indexes);
    };
    try {
      const places = await fresh.loggedPlaces(prescriptionId);
      assert.ok(places.every((p) => p.proved && p.kept));
    } finally {
      store.log.readHashes = readHashes;
    }
    return read;
  }

  beforeEach(() => {
    db = new Database(':memory:');
    store = new SqliteStore(db);
    id = identity();
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close();
    await store.close();
  });

  test('proves the leaves at the newest place only: one proof, whatever the chain length', async () => {
    await addEvents(store, 300);
    const short = await chainOfLength(2);
    const long = await chainOfLength(24);
    await addEvents(store, 300);
    await freshLog().grow();
    const [forShort, forLong] = [await hashesRead(short), await hashesRead(long)];
    console.log(`tree hashes read: chain of 2 → ${forShort}, chain of 24 → ${forLong}`);
    assert.ok(forShort > 0);
    // One inclusion proof each (a tree of ~630 leaves is 10 levels high): 24 would read ~10 times more.
    assert.ok(forLong <= forShort + 4, `${forLong} hashes for 24 events, ${forShort} for 2`);
  });

  test('an older leaf row edited contradicts the chain; the newest edited is not the tree’s', async () => {
    const rx = await chainOfLength(5);
    await freshLog().grow();
    const events = (await store.readChain(rx))!.state.events;
    const edit = db.prepare('UPDATE log_leaves SET hash = ? WHERE event_id = ?');
    edit.run(events[4]!.hash, events[2]!.id);
    const older = await freshLog().loggedPlaces(rx);
    assert.equal(firstContradicted(events, older), 2);
    edit.run(events[2]!.hash, events[2]!.id);
    edit.run(randomBytes(32).toString('hex'), events[4]!.id);
    const newest = await freshLog().loggedPlaces(rx);
    assert.deepEqual(
      newest.map((p) => p.proved),
      [true, true, true, true, false],
    );
    assert.equal(firstContradicted(events, newest), 4);
  });
});
