/** The transparency log's growths over a real SQLite store: what a growth reads, and when it stops. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { insertNew } from '../../test/store-contract/fixture.js';
import type { LogStore } from '../store/log.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { ed25519NoteSigner, ed25519PrivateKeyFromSeed, ed25519VerifierKey } from '../tlog/index.js';
import { GROWTH_LEAVES } from './grow-log.js';
import type { LogIdentity } from './grow-log.js';
import { TransparencyLog } from './transparency-log.js';

const ORIGIN = 'erx.test/log';

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
  const readLeaves = log.readLeaves.bind(log);
  log.head = () => {
    counts.heads += 1;
    return head();
  };
  log.readLeaves = (after, limit) => {
    counts.leaves += 1;
    return readLeaves(after, limit);
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

describe('TransparencyLog growth', () => {
  let store: SqliteStore;
  let log: TransparencyLog;

  beforeEach(() => {
    store = openSqliteStore(':memory:');
    log = new TransparencyLog(store, identity(), Date.now);
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
