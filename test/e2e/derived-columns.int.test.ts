/**
 * Columns that copy or point at signed data, edited or inserted directly in the database while erx
 * runs (on SQLite, and on PostgreSQL in the runner's second pass): every answer is decided from the
 * signed events, never from the copies.
 *
 * - The feed and its stream: a row inserted with a forged signature is not served; an `actor`
 *   column naming another pharmacy shows it neither the create event nor, through a dispense it
 *   did not make, the events of others.
 * - An `Idempotency-Key` whose remembered call was edited to point at another event (another
 *   prescription's, another actor's, another operation's) is refused with 409 `ledger_corrupt`,
 *   and nothing is appended.
 * - The prescriber's list: a row whose medicament copies do not read as a list is listed as not
 *   valid, and the page is a 200.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJson, formatTimestamp, sha256Hex } from '../../src/ledger/index.js';
import { feedHead } from '../../src/service/feed/feed-clock.js';
import { formatCursor } from '../../src/service/feed/feed-cursor.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import {
  assertError,
  calls,
  createPrescription,
  eventCount,
  expectationsOn,
  json,
  verify,
} from '../support/e2e.js';
import type { Call, Created, JsonObject } from '../support/e2e.js';
import type { Actor, TestServer } from '../support/server.js';
import { useTestServer } from '../support/server.js';
import { openStream } from '../support/sse.js';
import { withRows } from '../tamper/server-rows.js';

/** The cursor at the feed's head now (every event committed so far numbered). */
async function headCursor(server: TestServer): Promise<string> {
  return formatCursor(await feedHead(server.runtime.store));
}

/** The ids of the events of prescription `id` that `actor` reads in the feed after `after`. */
async function feedIds(server: TestServer, actor: Actor, after: string, id: string) {
  const answer = await server.request('GET', `/ePrescription/events?after=${after}&limit=500`, {
    token: actor.token,
  });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(answer.json.events.length < 500, 'the test reads one page');
  return (answer.json.events as JsonObject[])
    .filter((item) => item.prescription_id === id)
    .map((item) => item.event.id as string);
}

/**
 * The ids of the events of `id` a stream of `actor` sends when resumed at `after`, read once the
 * stream has sent `mark` (an event `actor` sees, appended after everything else).
 */
async function streamedIds(
  server: TestServer,
  actor: Actor,
  after: string,
  id: string,
  mark: string,
): Promise<string[]> {
  const stream = await openStream(server.url, { token: actor.token, lastEventId: after });
  try {
    assert.equal(stream.status, 200);
    await stream.until((s) => s.of(mark).length > 0);
    return stream.of(id).map((m) => m.data.event.id as string);
  } finally {
    stream.close();
  }
}

/** The chain of `id` as stored: each event's id, sequence number, hash and body. */
async function storedChain(server: TestServer, id: string) {
  return ((await server.runtime.store.readChain(id))?.state.events ?? []).map((e) => ({
    id: e.id,
    seq: e.seq,
    hash: e.hash,
    body: JSON.parse(e.body) as JsonObject,
  }));
}

describe('derived columns edited: the feed', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends } = expectationsOn(server);

  /** A lock of a fresh prescription by `actor`: an event `actor` sees, to wait for on a stream. */
  async function mark(actor: Actor): Promise<string> {
    const rx = await createPrescription(server, roomyPrescription());
    await appends(rx.id, call.lock(rx.id, actor), 'lock');
    await feedHead(server.runtime.store);
    return rx.id;
  }

  it('does not serve a row inserted with a forged signature, on the feed or the stream', async () => {
    const start = await headCursor(server);
    const rx = await createPrescription(server, roomyPrescription());
    await appends(
      rx.id,
      call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
      'partial_dispense',
    );
    const chain = await storedChain(server, rx.id);
    const head = chain.at(-1)!;
    // A revoke as the issuer would sign it, in the chain's place after its head, but not signed.
    const revoke: JsonObject = {
      ...chain[0]!.body,
      id: randomUUID(),
      type: 'revoke',
      event_data: {},
      timestamp: formatTimestamp(BigInt(Date.now() + 1_000) * 1_000_000n),
      parent_hash: head.hash,
    };
    delete revoke.prescription_hash;
    const body = canonicalJson(revoke);
    const forged = JSON.parse(body) as JsonObject;
    assert.equal(forged.actor, server.doctor.sub);
    await withRows(server, (rows) =>
      rows.insertEvent({
        prescription_id: rx.id,
        seq: head.seq + 1,
        id: forged.id,
        parent_hash: head.hash,
        body,
        hash: sha256Hex(body),
        signature: 'forged',
      }),
    );
    const genuine = chain.map((e) => e.id);
    // The issuer, and the pharmacy that dispensed (it sees the revokes of others), on the feed.
    assert.deepEqual(await feedIds(server, server.doctor, start, rx.id), genuine);
    assert.deepEqual(await feedIds(server, server.pharmacist, start, rx.id), [genuine[1]]);
    // And on the stream, resumed before the create: its window holds the forged row too.
    const doctorMark = await mark(server.doctor);
    assert.deepEqual(await streamedIds(server, server.doctor, start, rx.id, doctorMark), genuine);
    const pharmacyMark = await mark(server.pharmacist);
    assert.deepEqual(await streamedIds(server, server.pharmacist, start, rx.id, pharmacyMark), [
      genuine[1],
    ]);
  });

  it('does not trust an edited actor column: no foreign create, no involvement by proxy', async () => {
    const start = await headCursor(server);
    const created = await createPrescription(server, roomyPrescription());
    const served = await createPrescription(server, roomyPrescription());
    await appends(
      served.id,
      call.dispenseItems(served.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
      'partial_dispense',
    );
    await appends(served.id, call.revoke(served.id, server.doctor), 'revoke');
    await feedHead(server.runtime.store);
    const other = server.pharmacist2.sub;
    await withRows(server, async (rows) => {
      // The create event names the second pharmacy; so does the first pharmacy's dispense.
      await rows.setEvent(created.id, 0, 'actor', other);
      await rows.setEvent(served.id, 1, 'actor', other);
    });
    for (const id of [created.id, served.id]) {
      assert.deepEqual(await feedIds(server, server.pharmacist2, start, id), [], id);
    }
    const marked = await mark(server.pharmacist2);
    for (const id of [created.id, served.id]) {
      assert.deepEqual(await streamedIds(server, server.pharmacist2, start, id, marked), [], id);
    }
    // The issuer still sees the events whose copies hold; the edited row is served to no one.
    const chain = (await storedChain(server, served.id)).map((e) => e.id);
    assert.deepEqual(await feedIds(server, server.doctor, start, served.id), [chain[0], chain[2]]);
  });
});

describe('derived columns edited: an Idempotency-Key pointing elsewhere', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends, refuses } = expectationsOn(server);

  /** A dispense of one package of `id` by the first pharmacy, carrying `key`. */
  const keyedDispense = (id: string, key: string): Call =>
    call.post(`/ePrescription/dispense/${id}`, server.pharmacist, {
      ...json([{ id: MED_A, amount: 1 }]),
      headers: { 'idempotency-key': key },
    });

  /** Dispenses `rx` with a fresh key, then points the remembered call at `prescription`/`event`. */
  async function edited(rx: Created, prescription: string, event: string): Promise<Call> {
    const key = `retry-${randomUUID()}`;
    const retried = keyedDispense(rx.id, key);
    await appends(rx.id, retried, 'partial_dispense');
    await withRows(server, async (rows) => {
      await rows.setIdempotency(server.pharmacist.sub, key, 'prescription_id', prescription);
      await rows.setIdempotency(server.pharmacist.sub, key, 'event_id', event);
    });
    return retried;
  }

  /** The retry is refused, and neither prescription gains an event. */
  async function refused(rx: Created, other: string, retried: Call): Promise<void> {
    const before = await eventCount(server, other);
    const answer = await refuses(rx.id, retried, 409, 'conflict', 'ledger_corrupt');
    assert.equal(await eventCount(server, other), before);
    assert.doesNotMatch(answer.text, /at the counter/);
  }

  it('refuses a replay that would answer another pharmacy’s event on another prescription', async () => {
    const elsewhere = await createPrescription(server, roomyPrescription());
    const lock = await appends(
      elsewhere.id,
      call.lock(elsewhere.id, server.pharmacist2, '?reason=at%20the%20counter'),
      'lock',
    );
    const rx = await createPrescription(server, roomyPrescription());
    await refused(rx, elsewhere.id, await edited(rx, elsewhere.id, lock.id as string));
  });

  it('refuses a replay that would answer another actor’s event on the same prescription', async () => {
    const rx = await createPrescription(server, roomyPrescription());
    const create = (await storedChain(server, rx.id))[0]!.id;
    await refused(rx, rx.id, await edited(rx, rx.id, create));
  });

  it('refuses a replay that would answer the caller’s own event of another operation', async () => {
    const rx = await createPrescription(server, roomyPrescription());
    const lock = await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
    await appends(rx.id, call.unlock(rx.id, server.pharmacist), 'unlock');
    await refused(rx, rx.id, await edited(rx, rx.id, lock.id as string));
  });

  it('still answers an untouched replay with its first answer', async () => {
    const rx = await createPrescription(server, roomyPrescription());
    const retried = keyedDispense(rx.id, `retry-${randomUUID()}`);
    const first = await appends(rx.id, retried, 'partial_dispense');
    const again = await retried();
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json, first);
    assert.equal(await eventCount(server, rx.id), 2);
  });
});

describe('derived columns edited: the prescriber’s list', () => {
  const server = useTestServer();

  it('lists a row whose medicament copies do not read as a list as not valid, the page 200', async () => {
    const doctor = server.doctor2;
    const good = await createPrescription(server, roomyPrescription(), doctor);
    const edits = ['not json', '[1, 2]', '{"Id": "x"}', '[{"Id": 7, "IdType": "2"}]'];
    const bad: Created[] = [];
    for (const text of edits) {
      const rx = await createPrescription(server, roomyPrescription(), doctor);
      await withRows(server, (rows) => rows.setPrescription(rx.id, 'medicaments', text));
      bad.push(rx);
    }
    const answer = await server.request('GET', '/ePrescription/prescriptions?limit=100', {
      token: doctor.token,
    });
    assert.equal(answer.status, 200, answer.text);
    const byId = new Map(
      (answer.json.prescriptions as JsonObject[]).map((p) => [p.prescription_id, p]),
    );
    assert.equal(byId.get(good.id)?.valid, true);
    for (const [i, rx] of bad.entries()) {
      const item = byId.get(rx.id);
      assert.ok(item, edits[i]);
      assert.equal(item.valid, false, edits[i]);
      assert.equal(item.logs_check_passed, true, edits[i]);
      // Verify with the link says the same, and a dispense is refused as corrupt.
      const verified = await verify(server, rx.link, doctor.token);
      assert.equal(verified.valid, false, edits[i]);
      const dispense = await calls(server).full(rx.id)();
      assertError(dispense, 409, 'conflict', 'ledger_corrupt');
    }
  });
});
