/**
 * The prescriber's list (`GET /ePrescription/prescriptions`) on a real server: each prescriber
 * sees the prescriptions it issued and no other, each with the flags and medicaments verify's
 * variant with transactions shows; a pharmacist is refused (403), a call without a token or with
 * a bad one is a 401; the state filters and paging (a filtered page scans at most 5 × limit); a
 * chain edited in the database is listed flagged (`valid` and `logs_check_passed` false) instead
 * of failing the page.
 *
 * The server's clock can be moved: one prescription is dated so that it expires a minute after it
 * is created, and the clock is then moved two minutes on.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { roomyPrescription } from '../support/fixtures.js';
import { assertError, calls, createPrescription, expectationsOn, verify } from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';
import { withRows } from '../tamper/server-rows.js';

const VALIDITY_MS = 60 * 60_000;
/** How far the server's clock is moved on once every prescription exists. */
const MOVED_MS = 2 * 60_000;

/** The fields of verify's variant with transactions that the list shows too. */
const SHARED_FIELDS = [
  'prescription_id',
  'issued_at',
  'expires_at',
  'valid',
  'revoked',
  'dispensed',
  'dispensed_at',
  'dispensed_by',
  'locked',
  'locked_at',
  'locked_by',
  'expired',
  'medicaments',
];

describe('the prescriber’s list', () => {
  let clockMovedMs = 0;
  const server = useTestServer({
    env: { ERX_PRESCRIPTION_VALIDITY: '1h' },
    runtime: { now: () => Date.now() + clockMovedMs },
  });
  const call = calls(server);
  const { appends } = expectationsOn(server);
  let rx: Record<'open' | 'revoked' | 'dispensed' | 'locked' | 'expiring' | 'tampered', Created>;
  let others: Created[];
  /** The second doctor's, whose row was edited to name the first doctor as its issuer. */
  let moved: Created;
  /** The doctor's prescription ids in id order. */
  let ids: string[];
  /** The ids the store finds by the doctor's `issuer_actor`: `ids` and the moved one. */
  let candidates: string[];

  /** The list as `actor` asks for it (`null`: without a token). */
  const list = (query: string, actor: Actor | null = server.doctor) =>
    server.request(
      'GET',
      `/ePrescription/prescriptions${query}`,
      actor === null ? {} : { token: actor.token },
    );
  const listed = async (query: string, actor?: Actor): Promise<JsonObject> => {
    const answer = await list(query, actor);
    assert.equal(answer.status, 200, answer.text);
    return answer.json;
  };
  const idsOf = (page: JsonObject): string[] =>
    (page.prescriptions as JsonObject[]).map((p) => p.prescription_id);

  before(async () => {
    const dated = (msAgo: number) =>
      roomyPrescription({ Dt: new Date(Date.now() - msAgo).toISOString() });
    const [open, revoked, dispensed, locked, expiring, tampered, other, ...rest] =
      await Promise.all([
        createPrescription(server, roomyPrescription()),
        createPrescription(server, roomyPrescription()),
        createPrescription(server, roomyPrescription()),
        createPrescription(server, roomyPrescription()),
        // Expires a minute after it is created: before the clock is moved on.
        createPrescription(server, dated(VALIDITY_MS - 60_000)),
        createPrescription(server, roomyPrescription()),
        createPrescription(server, roomyPrescription(), server.doctor2),
        createPrescription(server, roomyPrescription(), server.doctor2),
        createPrescription(server, roomyPrescription(), server.doctor2),
      ]);
    moved = other!;
    rx = { open: open!, revoked: revoked!, dispensed: dispensed!, locked: locked! } as typeof rx;
    rx.expiring = expiring!;
    rx.tampered = tampered!;
    others = rest;
    await Promise.all([
      appends(rx.revoked.id, call.revoke(rx.revoked.id, server.doctor), 'revoke'),
      appends(rx.dispensed.id, call.full(rx.dispensed.id), 'full_dispense'),
      appends(rx.locked.id, call.lock(rx.locked.id, server.pharmacist), 'lock'),
      appends(rx.tampered.id, call.lock(rx.tampered.id, server.pharmacist), 'lock'),
    ]);
    // The lock event's signature replaced by the create event's: check 3 fails for it.
    await withRows(server, async (rows) => {
      const events = await rows.events(rx.tampered.id);
      await rows.setEvent(rx.tampered.id, events[1]!.seq, 'signature', events[0]!.signature);
      await rows.setPrescription(moved.id, 'issuer_actor', server.doctor.sub);
    });
    clockMovedMs = MOVED_MS;
    ids = Object.values(rx)
      .map((r) => r.id)
      .sort();
    candidates = [...ids, moved.id].sort();
  });

  it('shows each prescriber what it issued, in id order, and nothing else', async () => {
    const mine = await listed('?limit=100');
    // Not the one whose row names the doctor: its signed create event names another prescriber.
    assert.deepEqual(idsOf(mine), ids);
    assert.equal(mine.next, undefined);
    const theirs = await listed('', server.doctor2);
    assert.deepEqual(idsOf(theirs), others.map((r) => r.id).sort());
    assert.equal(theirs.next, undefined);
  });

  it('shows the flags and medicaments verify shows the issuer', async () => {
    const items = new Map(
      ((await listed('?limit=100')).prescriptions as JsonObject[]).map((p) => [
        p.prescription_id as string,
        p,
      ]),
    );
    for (const name of ['open', 'revoked', 'dispensed', 'locked', 'expiring'] as const) {
      const item: JsonObject = items.get(rx[name].id)!;
      const full = await verify(server, rx[name].link, server.doctor.token);
      const shared = Object.fromEntries(
        SHARED_FIELDS.flatMap((k) => (k in full ? [[k, full[k]]] : [])),
      );
      assert.equal(item.valid, true, name);
      assert.deepEqual(item, { ...shared, logs_check_passed: true }, name);
    }
    assert.equal(items.get(rx.revoked.id)!.revoked, true);
    assert.equal(items.get(rx.dispensed.id)!.dispensed, true);
    assert.equal(items.get(rx.dispensed.id)!.dispensed_by, server.pharmacist.sub);
    assert.equal(items.get(rx.locked.id)!.locked_by, server.pharmacist.name);
    assert.equal(items.get(rx.expiring.id)!.expired, true);
    assert.equal(items.get(rx.open.id)!.expired, false);
  });

  it('lists a chain that fails its checks flagged, instead of failing the page', async () => {
    const item = (await listed('?limit=100')).prescriptions.find(
      (p: JsonObject) => p.prescription_id === rx.tampered.id,
    );
    assert.equal(item.valid, false);
    assert.equal(item.logs_check_passed, false);
    // Verify agrees on the chain.
    const full = await verify(server, rx.tampered.link, server.doctor.token);
    assert.equal(full.tampering_detection_result.logs_check_passed, false);
  });

  it('narrows to a state: each state its flag, open none of them', async () => {
    const all = (await listed('?limit=100')).prescriptions as JsonObject[];
    const expected = {
      open: all.filter((p) => !p.revoked && !p.dispensed && !p.expired),
      revoked: [rx.revoked],
      dispensed: [rx.dispensed],
      expired: [rx.expiring],
    };
    assert.deepEqual(
      idsOf({ prescriptions: expected.open }),
      [rx.open.id, rx.locked.id, rx.tampered.id].sort(),
    );
    for (const [state, want] of Object.entries(expected)) {
      const page = await listed(`?state=${state}&limit=100`);
      assert.deepEqual(
        idsOf(page),
        want.map((p) => (p as JsonObject).prescription_id ?? (p as Created).id).sort(),
        state,
      );
      assert.equal(page.next, undefined, state);
    }
  });

  it('pages by id: next is the last id read, absent at the end; a filter scans 5 × limit', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await listed(`?limit=2${after === undefined ? '' : `&after=${after}`}`);
      assert.ok(page.prescriptions.length <= 2);
      seen.push(...idsOf(page));
      // The last id read: the last listed, or the moved one read after it and left out.
      if (page.next !== undefined) {
        const last = idsOf(page).at(-1)!;
        assert.ok(page.next === last || (page.next === moved.id && page.next > last));
      }
      after = page.next;
    } while (after !== undefined);
    assert.deepEqual(seen, ids);

    // A page of one expired prescription reads at most 5 of the doctor's prescriptions.
    const found: string[] = [];
    let from = -1;
    after = undefined;
    for (let pages = 0; ; pages += 1) {
      assert.ok(pages < candidates.length, 'the filtered pages never ended');
      const page = await listed(
        `?state=expired&limit=1${after === undefined ? '' : `&after=${after}`}`,
      );
      found.push(...idsOf(page));
      if (page.next === undefined) break;
      const to = candidates.indexOf(page.next);
      assert.ok(to > from && to - from <= 5, `scanned ${to - from} in one page`);
      from = to;
      after = page.next;
    }
    assert.deepEqual(found, [rx.expiring.id]);
    // An upper-case id names the same place.
    const upper = await listed(`?limit=100&after=${ids[0]!.toUpperCase()}`);
    assert.deepEqual(idsOf(upper), ids.slice(1));
  });

  it('refuses a pharmacist (403), no token and a bad token (401), a bad query (400)', async () => {
    assertError(await list('', server.pharmacist), 403, 'forbidden', 'wrong_role');
    assertError(await list('', null), 401, 'unauthorized');
    const bad = await server.request('GET', '/ePrescription/prescriptions', {
      token: 'not-a-token',
    });
    assertError(bad, 401, 'unauthorized');
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?state=closed',
      '?stat=open',
      '?after=',
      '?after=%FF',
    ]) {
      assertError(await list(query), 400, 'bad_request');
    }
  });
});
