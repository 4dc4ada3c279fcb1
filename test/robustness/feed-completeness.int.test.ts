/**
 * The event feed under concurrent appends. Three erx instances over one PostgreSQL database: 300
 * dispenses sent at once, spread over them, while a reader polls the feed with `limit=7` from one
 * instance after the other the whole time: it collects every event exactly once, each
 * prescription's events in chain order (a sequence read with `> after` would skip the events whose
 * transactions commit late). The same on SQLite with one instance. And across instances: an event
 * appended on one reaches a stream held on another at that instance's next look at the feed's head
 * (its poll, every `pollMs`: src/service/feed-clock.test.ts proves the polling), and a stream
 * resumed on a third with `Last-Event-ID` gets exactly the events it missed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPrescription } from '../support/e2e.js';
import type { JsonObject } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import { createTestDatabase, postgresSuite } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { openStream } from '../support/sse.js';

const DISPENSES = 300;
const PRESCRIPTIONS = 12;
/** The second instance never polls by itself (a day): the test makes its looks. */
const NEVER_MS = 86_400_000;

/** One partial dispense on `server` as its first pharmacist; asserts it was appended. */
async function dispense(server: TestServer, id: string): Promise<string> {
  const answer = await server.request('POST', `/ePrescription/dispense/${id}`, {
    token: server.pharmacist.token,
    body: JSON.stringify([{ id: MED_A, amount: 1 }]),
    contentType: 'application/json',
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.id as string;
}

/**
 * Sends {@link DISPENSES} dispenses at once over `servers` on fresh prescriptions while a reader
 * polls the feed with `limit=7`, round the servers, from the head before the first one; then
 * checks what the reader collected against the chains as stored.
 */
async function collectsEveryEventOnce(servers: TestServer[]): Promise<void> {
  const [first] = servers;
  const head = await first!.request('GET', '/ePrescription/events?limit=500', {
    token: first!.doctor.token,
  });
  // The reader starts at the head (the feed may hold events of earlier tests).
  let cursor = head.json.next as string;
  let next = head;
  while (next.json.events.length === 500) {
    next = await first!.request('GET', `/ePrescription/events?after=${cursor}&limit=500`, {
      token: first!.doctor.token,
    });
    cursor = next.json.next;
  }
  const rxs = await Promise.all(
    Array.from({ length: PRESCRIPTIONS }, (_, i) =>
      createPrescription(servers[i % servers.length]!, roomyPrescription()),
    ),
  );
  const seen: JsonObject[] = [];
  let writing = true;
  let polls = 0;
  const poll = async (): Promise<number> => {
    const server = servers[polls++ % servers.length]!;
    const answer = await server.request('GET', `/ePrescription/events?after=${cursor}&limit=7`, {
      token: server.doctor.token,
    });
    assert.equal(answer.status, 200, answer.text);
    seen.push(...answer.json.events);
    cursor = answer.json.next;
    return answer.json.events.length;
  };
  const reader = (async () => {
    while (writing) await poll();
    // Caught up: a page that is not full, read after every write was answered.
    while ((await poll()) === 7);
  })();
  try {
    await Promise.all(
      Array.from({ length: DISPENSES }, (_, i) =>
        dispense(servers[i % servers.length]!, rxs[i % PRESCRIPTIONS]!.id),
      ),
    );
  } finally {
    writing = false;
  }
  await reader;
  assert.ok(polls > 10, `the reader polled ${polls} times only`);

  const mine = new Set(rxs.map((rx) => rx.id));
  const collected = seen.filter((item) => mine.has(item.prescription_id));
  const ids = collected.map((item) => item.event.id as string);
  assert.equal(new Set(ids).size, ids.length, 'an event was collected twice');
  assert.equal(new Set(seen.map((item) => item.cursor)).size, seen.length, 'a cursor repeated');
  const store = first!.runtime.store;
  let total = 0;
  for (const rx of rxs) {
    const chain = ((await store.readChain(rx.id))?.state.events ?? []).map((e) => e.id);
    total += chain.length;
    const order = collected.filter((i) => i.prescription_id === rx.id).map((i) => i.event.id);
    assert.deepEqual(order, chain, `prescription ${rx.id}: not every event, or not in chain order`);
  }
  assert.equal(total, PRESCRIPTIONS + DISPENSES);
  assert.equal(ids.length, total);
}

await postgresSuite('the event feed of three instances over one PostgreSQL', () => {
  let db: TestDatabase;
  let dataDir: string;
  const servers: TestServer[] = [];

  before(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'erx-feed-'));
    // One after the other: the first makes the keys and registers the clients.
    for (let i = 0; i < 3; i++) {
      const feed = i === 1 ? { pollMs: NEVER_MS } : {};
      servers.push(
        await startTestServer({ dataDir, env: { ERX_DATABASE_URL: db.url }, runtime: { feed } }),
      );
    }
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  });

  it("an event appended on one instance reaches a stream on another at that instance's next look", async () => {
    const [a, b, c] = servers as [TestServer, TestServer, TestServer];
    const rx = await createPrescription(a, roomyPrescription());
    const stream = await openStream(b.url, { token: b.pharmacist.token });
    assert.equal(stream.status, 200);
    try {
      for (let i = 0; i < 3; i++) {
        const seen = stream.of(rx.id).length;
        // Answered: committed on the shared database, and numbered by the first instance.
        const id = await dispense(a, rx.id);
        // The second instance has not looked since: nothing reached its stream.
        assert.equal(stream.of(rx.id).length, seen);
        await b.runtime.feedClock.look();
        await stream.until((s) => s.of(rx.id).length > seen);
        assert.equal(stream.of(rx.id).length, seen + 1);
        assert.equal(stream.of(rx.id).at(-1)?.data.event.id, id);
      }
    } finally {
      stream.close();
    }
    const last = stream.messages.at(-1)!.id!;
    const missed = [await dispense(a, rx.id), await dispense(b, rx.id)];
    const resumed = await openStream(c.url, { token: c.pharmacist.token, lastEventId: last });
    try {
      await resumed.until((s) => s.of(rx.id).length === 2);
      missed.push(await dispense(b, rx.id));
      await resumed.until((s) => s.of(rx.id).length === 3);
      assert.deepEqual(
        resumed.messages.map((m) => m.data.event.id),
        missed,
      );
    } finally {
      resumed.close();
    }
  });

  it(`a reader polling with limit=7 collects each of ${DISPENSES} concurrent dispenses once, in chain order`, async () => {
    await collectsEveryEventOnce(servers);
  });
});

describe('the event feed of one instance on SQLite', () => {
  let server: TestServer;

  before(async () => {
    // SQLite: the runner sets no ERX_TEST_ENGINE for this folder.
    server = await startTestServer();
  });

  after(async () => {
    await server.close();
  });

  it(`a reader polling with limit=7 collects each of ${DISPENSES} concurrent dispenses once, in chain order`, async () => {
    await collectsEveryEventOnce([server]);
  });
});
