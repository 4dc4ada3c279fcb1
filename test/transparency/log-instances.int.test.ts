/**
 * The transparency log of three erx instances over one PostgreSQL database under 300 concurrent
 * dispenses spread over them: every answer carries a receipt that verifies against the log key;
 * once quiet, the log has exactly one leaf per event, each its entry's hash, with no gap and none
 * twice; and every checkpoint any instance signed is the root of one and the same
 * tree at its size (one consistent sequence). The same on SQLite with one instance.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LogStore } from '../../src/store/log.js';
import {
  ed25519NoteVerifier,
  leafHash,
  openCheckpoint,
  parseTlogProof,
  storedHashIndex,
  treeHash,
  verifyTlogProof,
} from '../../src/tlog/index.js';
import type { CheckpointPolicy } from '../../src/tlog/index.js';
import { leafEntry, splitReceiptExtra } from '../../src/transparency/leaf-entry.js';
import { createPrescription } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import { createTestDatabase, postgresSuite } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const DISPENSES = 300;
const PRESCRIPTIONS = 12;

/** The event hash a receipt's JWS (its `extra`) signs. */
function signedHash(jws: string): string {
  const payload = jws.split('.')[1]!;
  return Buffer.from(payload, 'base64url').toString('utf8');
}

/** Sends the dispenses at once over `servers` and checks each receipt; the events' ids. */
async function dispenseEverywhere(servers: TestServer[], policy: CheckpointPolicy) {
  const rxs = await Promise.all(
    Array.from({ length: PRESCRIPTIONS }, (_, i) =>
      createPrescription(servers[i % servers.length]!, roomyPrescription()),
    ),
  );
  const answers = await Promise.all(
    Array.from({ length: DISPENSES }, (_, i) =>
      servers[i % servers.length]!.request(
        'POST',
        `/ePrescription/dispense/${rxs[i % PRESCRIPTIONS]!.id}`,
        {
          token: servers[i % servers.length]!.pharmacist.token,
          body: JSON.stringify([{ id: MED_A, amount: 1 }]),
          contentType: 'application/json',
        },
      ),
    ),
  );
  for (const answer of answers) {
    assert.equal(answer.status, 200, answer.text);
    const receipt = String(answer.json.receipt);
    const { extra } = parseTlogProof(receipt);
    assert.ok(extra, 'the receipt carries the event JWS');
    const split = splitReceiptExtra(extra);
    const hash = signedHash(split.jws);
    assert.equal(hash, answer.json.hash);
    const verified = verifyTlogProof(receipt, leafHash(split.entry(hash)), policy);
    assert.ok(verified.index < verified.checkpoint.size);
  }
}

/** Waits until the log holds every event the feed has numbered; the count. */
async function quiet(server: TestServer): Promise<number> {
  const { store } = server.runtime;
  for (let i = 0; i < 200; i++) {
    await server.runtime.transparency.grow();
    const head = await store.feed.head();
    if ((await store.log.head())?.size === head) return head;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('the log did not reach the feed head');
}

/** Every event is one leaf, each leaf its entry's hash, and every checkpoint one tree's root. */
async function oneTreeOfAllEvents(server: TestServer, size: number, policy: CheckpointPolicy) {
  const log: LogStore = server.runtime.store.log;
  const leaves = await log.readLeafRows(0, size + 10);
  assert.deepEqual(
    leaves.map((l) => l.index),
    Array.from({ length: size }, (_, i) => i),
    'leaves 0..N-1, no gap, none twice',
  );
  assert.equal(new Set(leaves.map((l) => l.eventId)).size, size, 'every event once');
  const stored = await log.readHashes(leaves.map((l) => storedHashIndex(0, l.index)));
  leaves.forEach((leaf, i) => {
    assert.deepEqual(Buffer.from(stored[i]!), leafHash(leafEntry(leaf)), `leaf ${i}`);
  });
  const reader = (indexes: readonly number[]) => log.readHashes(indexes);
  const checkpoints = await log.checkpointsAfter(0, 100_000);
  assert.ok(checkpoints.length > 1);
  let last = 0;
  for (const c of checkpoints) {
    assert.ok(c.size > last, 'sizes only grow');
    last = c.size;
    const opened = openCheckpoint(c.note, policy);
    assert.deepEqual(
      opened.checkpoint.root,
      await treeHash(c.size, reader),
      `checkpoint ${c.size}`,
    );
  }
  assert.equal(last, size);
}

/** The log key's policy, as a verifier holding only the published key has it. */
function policyOf(server: TestServer): CheckpointPolicy {
  const { transparency } = server.runtime;
  return {
    origin: transparency.identity.origin,
    log: [ed25519NoteVerifier(transparency.identity.verifierKey)],
  };
}

await postgresSuite('the transparency log of three instances over one PostgreSQL', () => {
  let db: TestDatabase;
  let dataDir: string;
  const servers: TestServer[] = [];

  before(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'erx-log-'));
    // One after the other: the first makes the keys (the log key among them).
    for (let i = 0; i < 3; i++) {
      servers.push(await startTestServer({ dataDir, env: { ERX_DATABASE_URL: db.url } }));
    }
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  });

  it(`has one leaf per event and one sequence of checkpoints after ${DISPENSES} concurrent dispenses`, async () => {
    const policy = policyOf(servers[0]!);
    await dispenseEverywhere(servers, policy);
    const size = await quiet(servers[0]!);
    assert.equal(size, PRESCRIPTIONS + DISPENSES);
    await oneTreeOfAllEvents(servers[0]!, size, policy);
  });
});

describe('the transparency log of one instance on SQLite', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it(`has one leaf per event and one sequence of checkpoints after ${DISPENSES} concurrent dispenses`, async () => {
    const policy = policyOf(server);
    await dispenseEverywhere([server], policy);
    const size = await quiet(server);
    assert.equal(size, PRESCRIPTIONS + DISPENSES);
    await oneTreeOfAllEvents(server, size, policy);
  });
});
