/**
 * The event feed and its live stream over a real socket (on SQLite, and on PostgreSQL in the
 * runner's second pass): commit order and paging, a cursor resumed later sees exactly the rest,
 * events shown as verify shows them, who sees what (the issuer, another prescriber, the acting
 * pharmacy, another pharmacy, no token, a bad token) on the feed and on the stream, a stream
 * resumed with `Last-Event-ID`, and the bound of streams per client.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feedHead } from '../../src/service/feed/feed-clock.js';
import { formatCursor } from '../../src/service/feed/feed-cursor.js';
import { assertError, calls, createPrescription, verify } from '../support/e2e.js';
import type { JsonObject } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import type { Answer } from '../support/http.js';
import type { Actor, TestServer } from '../support/server.js';
import { useTestServer } from '../support/server.js';
import { answerOf, openStream } from '../support/sse.js';
import type { SseStream } from '../support/sse.js';

/** One page of the feed as `actor`. */
function page(server: TestServer, actor: Actor | undefined, query = ''): Promise<Answer> {
  return server.request('GET', `/ePrescription/events${query}`, actor && { token: actor.token });
}

/** Every event `actor` may see after `after`, read `limit` at a time, and the cursor at the end. */
async function readAll(
  server: TestServer,
  actor: Actor,
  after: string,
  limit = 100,
): Promise<{ events: JsonObject[]; next: string }> {
  const events: JsonObject[] = [];
  let next = after;
  for (;;) {
    const answer = await page(server, actor, `?after=${next}&limit=${limit}`);
    assert.equal(answer.status, 200, answer.text);
    events.push(...answer.json.events);
    next = answer.json.next;
    if (answer.json.events.length < limit) return { events, next };
  }
}

/** The cursor at the feed's head now. */
async function headCursor(server: TestServer): Promise<string> {
  return formatCursor(await feedHead(server.runtime.store));
}

/** A partial dispense of one package by `actor`; answers the event. */
async function dispense(server: TestServer, id: string, actor: Actor): Promise<JsonObject> {
  const answer = await calls(server).dispenseItems(id, actor, [{ id: MED_A, amount: 1 }])();
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

async function post(server: TestServer, path: string, actor: Actor): Promise<JsonObject> {
  const answer = await server.request('POST', path, { token: actor.token });
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

const roomy = (server: TestServer) => createPrescription(server, roomyPrescription());
const idsOf = (events: JsonObject[]): string[] => events.map((e) => e.event.id);

/**
 * Who sees what, on two prescriptions of the first prescriber: on `p1` the first pharmacy acts
 * (another pharmacy's dispense before its first dispense or cancel stays unseen, also after a lock
 * and unlock of its own; one after it is seen); on `p2` only the second pharmacy acts. Answers the events each actor may see, in order.
 */
async function visibilityScenario(server: TestServer) {
  const { doctor, pharmacist, pharmacist2 } = server;
  const p1 = await roomy(server);
  const p2 = await roomy(server);
  const create1 = ((await server.runtime.store.readChain(p1.id))?.state.events ?? [])[0]!.id;
  const create2 = ((await server.runtime.store.readChain(p2.id))?.state.events ?? [])[0]!.id;
  const lockByOther = await post(server, `/ePrescription/lock/${p1.id}`, pharmacist2);
  const unlockByOther = await post(server, `/ePrescription/unlock/${p1.id}`, pharmacist2);
  const own = await dispense(server, p1.id, pharmacist);
  const otherAfter = await dispense(server, p1.id, pharmacist2);
  const cancel = await post(server, `/ePrescription/cancel/${p1.id}/event/${own.id}`, pharmacist);
  const revoke = await post(server, `/ePrescription/revoke/${p1.id}`, doctor);
  const second = await dispense(server, p2.id, pharmacist2);
  const ids = (...events: JsonObject[]): string[] => events.map((e) => e.id);
  const seen = (onP1: string[], onP2: string[]): Record<string, string[]> => ({
    [p1.id]: onP1,
    [p2.id]: onP2,
  });
  return {
    prescriptions: [p1.id, p2.id],
    expected: new Map<Actor, Record<string, string[]>>([
      [
        doctor,
        seen(
          [create1, ...ids(lockByOther, unlockByOther, own, otherAfter, cancel, revoke)],
          [create2, second.id],
        ),
      ],
      [server.doctor2, seen([], [])],
      [pharmacist, seen(ids(own, otherAfter, cancel, revoke), [])],
      // The second pharmacy only locked and unlocked p1 before the first one's dispense: a lock
      // alone involves no one (SPEC.md §10), so that dispense stays unseen; from its own dispense
      // on it sees every later dispense, cancel and revoke.
      [pharmacist2, seen(ids(lockByOther, unlockByOther, otherAfter, cancel, revoke), ids(second))],
    ]),
  };
}

/**
 * The events of `items` on each of `prescriptions`, in the order they came. Events of different
 * prescriptions numbered together are ordered by prescription, not by commit (PostgreSQL), so
 * order is compared per prescription.
 */
function byPrescription(items: JsonObject[], prescriptions: string[]): Record<string, string[]> {
  return Object.fromEntries(
    prescriptions.map((id) => [
      id,
      items.filter((item) => item.prescription_id === id).map((item) => item.event.id),
    ]),
  );
}

describe('the event feed', () => {
  const server = useTestServer();

  it('answers in commit order, `limit` at a time, and a cursor resumed later sees exactly the rest', async () => {
    const start = await headCursor(server);
    const rx = await roomy(server);
    for (let i = 0; i < 4; i++) await dispense(server, rx.id, server.pharmacist);
    const chain = ((await server.runtime.store.readChain(rx.id))?.state.events ?? []).map(
      (e) => e.id,
    );

    const first = await page(server, server.doctor, `?after=${start}&limit=2`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(idsOf(first.json.events), chain.slice(0, 2));
    assert.equal(first.json.next, first.json.events[1].cursor);
    const second = await page(server, server.doctor, `?after=${first.json.next}&limit=2`);
    assert.deepEqual(idsOf(second.json.events), chain.slice(2, 4));
    const third = await page(server, server.doctor, `?after=${second.json.next}&limit=2`);
    assert.deepEqual(idsOf(third.json.events), chain.slice(4));
    const cursors = [first, second, third].flatMap((a) =>
      a.json.events.map((e: JsonObject) => e.cursor),
    );
    assert.equal(new Set(cursors).size, 5);
    for (const item of [first, second, third].flatMap((a) => a.json.events)) {
      assert.equal(item.prescription_id, rx.id);
    }

    // Later, after more events: exactly the rest, then nothing, the cursor standing.
    for (let i = 0; i < 2; i++) await dispense(server, rx.id, server.pharmacist);
    const rest = await readAll(server, server.doctor, third.json.next, 2);
    const all = ((await server.runtime.store.readChain(rx.id))?.state.events ?? []).map(
      (e) => e.id,
    );
    assert.deepEqual(idsOf(rest.events), all.slice(5));
    const empty = await page(server, server.doctor, `?after=${rest.next}`);
    assert.deepEqual(empty.json.events, []);
    assert.equal(empty.json.next, rest.next);
    // From the start without `after`: the same events, in the same order.
    const whole = await readAll(server, server.doctor, formatCursor(0), 500);
    const mine = whole.events.filter((e) => e.prescription_id === rx.id);
    assert.deepEqual(idsOf(mine), all);
  });

  it('shows each event as verify shows it, a cancelled dispense as no longer cancellable', async () => {
    const start = await headCursor(server);
    const rx = await roomy(server);
    const own = await dispense(server, rx.id, server.pharmacist);
    await dispense(server, rx.id, server.pharmacist);
    await post(server, `/ePrescription/cancel/${rx.id}/event/${own.id}`, server.pharmacist);
    const { events } = await readAll(server, server.doctor, start);
    const shown = (await verify(server, rx.link, server.doctor.token)).events;
    assert.deepEqual(
      events.filter((e) => e.prescription_id === rx.id).map((e) => e.event),
      shown,
    );
    assert.equal(events.find((e) => e.event.id === own.id)?.event.cancellable, false);
  });

  it('shows each caller what it may see: issuer, other prescriber, acting and other pharmacy', async () => {
    const start = await headCursor(server);
    const { prescriptions, expected } = await visibilityScenario(server);
    for (const [actor, seen] of expected) {
      const { events } = await readAll(server, actor, start, 3);
      assert.deepEqual(byPrescription(events, prescriptions), seen, actor.clientId);
    }
  });

  it('refuses a call without a token or with a bad one, and a malformed query', async () => {
    assertError(await page(server, undefined), 401, 'unauthorized');
    const bad = await server.request('GET', '/ePrescription/events', { token: 'not-a-token' });
    assertError(bad, 401, 'unauthorized');
    for (const query of ['?limit=0', '?limit=501', '?limit=abc', '?after=', '?extra=1']) {
      assertError(await page(server, server.doctor, query), 400, 'bad_request');
    }
    for (const after of ['7', 'f1.-1', 'f2.1', 'f1.A']) {
      const answer = await page(server, server.doctor, `?after=${after}`);
      assertError(answer, 400, 'bad_request');
      assert.deepEqual(
        answer.json.violations.map((v: JsonObject) => v.path),
        ['/after'],
      );
    }
  });
});

describe('the event stream', () => {
  const server = useTestServer();

  /** Opens a stream as `actor` and asserts it is open. */
  async function open(actor: Actor, options: { lastEventId?: string; after?: string } = {}) {
    const stream = await openStream(server.url, { token: actor.token, ...options });
    assert.equal(stream.status, 200, JSON.stringify(stream.json));
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    return stream;
  }

  it('streams live what each caller may see, and refuses no token and a bad one', async () => {
    const actors = [server.doctor, server.doctor2, server.pharmacist, server.pharmacist2];
    const streams = new Map<Actor, SseStream>();
    for (const actor of actors) streams.set(actor, await open(actor));
    try {
      const anonymous = await openStream(server.url);
      assertError(answerOf(anonymous), 401, 'unauthorized');
      const bad = await openStream(server.url, { token: 'not-a-token' });
      assertError(answerOf(bad), 401, 'unauthorized');

      const { prescriptions, expected } = await visibilityScenario(server);
      // Numbered now (on PostgreSQL), before the marks below that every stream waits for.
      await headCursor(server);
      const mark1 = await roomy(server);
      const mark2 = await createPrescription(server, roomyPrescription(), server.doctor2);
      await post(server, `/ePrescription/lock/${mark1.id}`, server.pharmacist);
      await post(server, `/ePrescription/lock/${mark2.id}`, server.pharmacist2);
      const marks = new Map<Actor, string>([
        [server.doctor, mark1.id],
        [server.doctor2, mark2.id],
        [server.pharmacist, mark1.id],
        [server.pharmacist2, mark2.id],
      ]);
      for (const [actor, stream] of streams) {
        await stream.until((s) => s.of(marks.get(actor)!).length > 0);
        const seen = stream.messages.map((m) => m.data as JsonObject);
        assert.deepEqual(byPrescription(seen, prescriptions), expected.get(actor), actor.clientId);
        for (const message of stream.messages) assert.equal(message.id, message.data.cursor);
      }
    } finally {
      for (const stream of streams.values()) stream.close();
    }
  });

  it('resumed with Last-Event-ID, gets exactly the events it missed, then live ones', async () => {
    const rx = await roomy(server);
    const stream = await open(server.pharmacist);
    const a = await dispense(server, rx.id, server.pharmacist);
    const b = await dispense(server, rx.id, server.pharmacist);
    await stream.until((s) => s.of(rx.id).length === 2);
    stream.close();
    const lastId = stream.messages.at(-1)!.id!;
    assert.deepEqual(idsOf(stream.messages.map((m) => m.data)), [a.id, b.id]);

    const missed = [await dispense(server, rx.id, server.pharmacist)];
    missed.push(await dispense(server, rx.id, server.pharmacist));
    // `after` is what a client without Last-Event-ID sends; the header wins.
    const resumed = await open(server.pharmacist, { lastEventId: lastId, after: formatCursor(0) });
    try {
      await resumed.until((s) => s.of(rx.id).length === 2);
      missed.push(await dispense(server, rx.id, server.pharmacist));
      await resumed.until((s) => s.of(rx.id).length === 3);
      assert.deepEqual(
        idsOf(resumed.messages.map((m) => m.data)),
        missed.map((e) => e.id),
      );
    } finally {
      resumed.close();
    }
    const fromQuery = await open(server.pharmacist, { after: lastId });
    try {
      await fromQuery.until((s) => s.of(rx.id).length === 3);
    } finally {
      fromQuery.close();
    }
  });

  it('refuses a malformed Last-Event-ID, naming it', async () => {
    const refused = await openStream(server.url, { token: server.doctor.token, lastEventId: 'x' });
    assertError(answerOf(refused), 400, 'bad_request');
    assert.deepEqual(
      refused.json.violations.map((v: JsonObject) => v.path),
      ['/Last-Event-ID'],
    );
  });

  it('refuses the sixth stream of a client with 429 and Retry-After, not another client', async () => {
    const held: SseStream[] = [];
    try {
      for (let i = 0; i < 5; i++) held.push(await open(server.doctor2));
      const sixth = await openStream(server.url, { token: server.doctor2.token });
      assertError(answerOf(sixth), 429, 'too_many_requests');
      assert.ok(Number(sixth.headers['retry-after']) >= 1);
      held.push(await open(server.doctor));
      // A stream closed frees its place once the server has seen it go.
      held[0]!.close();
      const until = Date.now() + 3_000;
      let again = await openStream(server.url, { token: server.doctor2.token });
      while (again.status === 429 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await openStream(server.url, { token: server.doctor2.token });
      }
      assert.equal(again.status, 200);
      held.push(again);
    } finally {
      for (const stream of held) stream.close();
    }
  });
});
