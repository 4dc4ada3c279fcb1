/**
 * The prescription rules of SPEC.md §10 over a real socket, one suite per rule: quantities in
 * packages, completion, the substitution ban, validity, force and its overrides, lapsing locks
 * and the issuer's lock rights, and ids compared case-insensitively. Every refused call leaves the
 * chain's event count unchanged; every forced call records what it overrode.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MED_A, MED_B, SUBSTITUTE, samplePrescription } from '../support/fixtures.js';
import {
  assertError,
  calls,
  createPrescription,
  eventCount,
  expectationsOn,
  json,
  verify,
} from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import type { Answer } from '../support/http.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/server.js';

/** What a test sets of one medicament: its `Id` and the fields the rules read. */
interface MedicamentTerms {
  Id: string;
  NbPack?: number;
  Rep?: number;
  Subs?: 0 | 1;
}

/** The sample document prescribing `terms`, each medicament otherwise as the sample's first. */
function prescribing(terms: MedicamentTerms[], overrides: Record<string, unknown> = {}) {
  const template = { ...(samplePrescription().Medicaments as Record<string, unknown>[])[0] };
  delete template.NbPack;
  delete template.Rep;
  delete template.Subs;
  return samplePrescription({
    Medicaments: terms.map((t) => ({ ...template, ...t })),
    ...overrides,
  });
}

/** A dispense item. */
function item(id: string, amount: number, substitute?: string): JsonObject {
  return substitute === undefined
    ? { id, amount }
    : { id, amount, substitute, substitute_id_type: 2 };
}

/** Resolves once `condition()` holds, checking every 25 ms; fails after `timeoutMs`. */
async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    assert.ok(Date.now() < until, 'the awaited condition never held');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The verify answer with transactions, as the first pharmacist reads it. */
function asPharmacist(server: TestServer, rx: Created): Promise<JsonObject> {
  return verify(server, rx.link, server.pharmacist.token);
}

/** Asserts the event data of a forced dispensation (SPEC.md §10 "Force"). */
function assertForced(event: JsonObject, overrides: string[], reason?: string): void {
  const expected: JsonObject = { force: true, overrides };
  if (reason !== undefined) expected.reason = reason;
  assert.deepEqual(event.event_data, expected);
}

/** Asserts exactly the seed §7 answer to a dispense of a fully dispensed prescription. */
function assertAlreadyDispensed(answer: Answer): void {
  const body = answer.json as JsonObject;
  assert.deepEqual(Object.keys(body).sort(), ['cause', 'error_code', 'message', 'trace']);
  assert.deepEqual(Object.keys(body.cause).sort(), ['Code', 'Message', 'StatusCode', 'Trace']);
  assert.equal(body.error_code, 'forbidden');
  assert.equal(body.cause.StatusCode, 403);
  assert.equal(body.cause.Code, 'unknown_error');
  assert.match(body.cause.Message, /already.*fully dispensed/i);
}

describe('prescription rules (SPEC.md §10)', () => {
  const server = useTestServer();
  const { appends, refuses } = expectationsOn(server);
  const call = calls(server);

  /** A partial dispensation of `items` by `actor` (default: the first pharmacist). */
  const partial = (id: string, items: JsonObject[], query = '', actor = server.pharmacist) =>
    call.dispenseItems(id, actor, items, query);

  describe('quantities count packages', () => {
    it('allows NbPack 2, Rep 1 = 4 packages split 1+2+1, showing what remains at each step', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 2, Rep: 1 }]));
      const status = (dispensed: number, remaining: number) => [
        { id: MED_A, prescribed: 4, dispensed, remaining, substitution_allowed: true },
      ];
      assert.deepEqual((await asPharmacist(server, rx)).medicaments, status(0, 4));
      for (const [amount, dispensed, remaining] of [
        [1, 1, 3],
        [2, 3, 1],
      ] as const) {
        await appends(rx.id, partial(rx.id, [item(MED_A, amount)]), 'partial_dispense');
        const result = await asPharmacist(server, rx);
        assert.deepEqual(result.medicaments, status(dispensed, remaining));
        assert.equal(result.dispensed, false);
      }
      const last = await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const result = await asPharmacist(server, rx);
      assert.deepEqual(result.medicaments, status(4, 0));
      assert.equal(result.dispensed, true);
      assert.equal(result.dispensed_at, last.timestamp);
      const more = await refuses(rx.id, partial(rx.id, [item(MED_A, 1)]), 403, 'forbidden');
      assertAlreadyDispensed(more);
    });

    it('refuses a partial asking for more than remains, naming the medicament and what remains', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 5 }]));
      await appends(rx.id, partial(rx.id, [item(MED_A, 2)]), 'partial_dispense');
      const answer = await refuses(
        rx.id,
        partial(rx.id, [item(MED_A, 4)]),
        403,
        'forbidden',
        'quantity_exceeded',
      );
      const message = answer.json.message as string;
      assert.ok(message.includes(MED_A), message);
      assert.match(message, /\b3\b/, 'the message says that 3 packages remain');
      assert.match(message, /remain/i);
      // What remains may still be taken.
      await appends(rx.id, partial(rx.id, [item(MED_A, 3)]), 'partial_dispense');
    });

    it('adds up the items of one call for the same medicament', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 3 }]));
      await refuses(
        rx.id,
        partial(rx.id, [item(MED_A, 2), item(MED_A, 2)]),
        403,
        'forbidden',
        'quantity_exceeded',
      );
      await appends(rx.id, partial(rx.id, [item(MED_A, 2), item(MED_A, 1)]), 'partial_dispense');
      assert.equal((await asPharmacist(server, rx)).dispensed, true);
    });

    it('counts a substitute for the medicament it replaces', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 2, Subs: 0 }]));
      await appends(rx.id, partial(rx.id, [item(MED_A, 1, SUBSTITUTE)]), 'partial_dispense');
      assert.deepEqual((await asPharmacist(server, rx)).medicaments, [
        { id: MED_A, prescribed: 2, dispensed: 1, remaining: 1, substitution_allowed: true },
      ]);
      await refuses(rx.id, partial(rx.id, [item(MED_A, 2)]), 403, 'forbidden', 'quantity_exceeded');
    });

    it('prescribes one package when NbPack and Rep are left out', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A }]));
      assert.deepEqual((await asPharmacist(server, rx)).medicaments, [
        { id: MED_A, prescribed: 1, dispensed: 0, remaining: 1, substitution_allowed: true },
      ]);
      await refuses(rx.id, partial(rx.id, [item(MED_A, 2)]), 403, 'forbidden', 'quantity_exceeded');
    });

    it('takes every medicament to its prescribed quantity with a full dispensation', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, partial(rx.id, [item(MED_B, 3)]), 'partial_dispense');
      const full = await appends(rx.id, call.full(rx.id), 'full_dispense');
      const result = await asPharmacist(server, rx);
      assert.deepEqual(result.medicaments, [
        { id: MED_A, prescribed: 1, dispensed: 1, remaining: 0, substitution_allowed: true },
        { id: MED_B, prescribed: 8, dispensed: 8, remaining: 0, substitution_allowed: false },
      ]);
      assert.equal(result.dispensed_at, full.timestamp);
    });

    it('creates NbPack 1 to 10,000 and refuses 0, negatives and more, naming each path', async () => {
      const rx = await createPrescription(
        server,
        prescribing([
          { Id: MED_A, NbPack: 1 },
          { Id: MED_B, NbPack: 10_000 },
        ]),
      );
      assert.deepEqual(
        (await asPharmacist(server, rx)).medicaments.map((m: JsonObject) => m.prescribed),
        [1, 10_000],
      );
      const counts = [0, -1, 10_001, 1e308, -1e308];
      const doc = prescribing(counts.map((NbPack, i) => ({ Id: `76800000000${10 + i}`, NbPack })));
      const answer = await server.request(
        'POST',
        '/ePrescription/create',
        json(doc, { token: server.doctor.token }),
      );
      assertError(answer, 400, 'bad_request');
      assert.deepEqual(
        answer.json.violations.map((v: JsonObject) => [v.path, v.code, v.params.limit]),
        counts.map((count, i) => [
          `/Medicaments/${i}/NbPack`,
          count < 1 ? 'minimum' : 'maximum',
          count < 1 ? 1 : 10_000,
        ]),
      );
    });
  });

  describe('completion', () => {
    it('completes a one-package prescription with a partial of 1, dispensed_at/by from it', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1, Rep: 0 }]));
      const event = await appends(
        rx.id,
        partial(rx.id, [item(MED_A, 1)], '', server.pharmacist2),
        'partial_dispense',
      );
      const result = await asPharmacist(server, rx);
      assert.equal(result.dispensed, true);
      assert.equal(result.dispensed_at, event.timestamp);
      assert.equal(result.dispensed_by, server.pharmacist2.sub);
      assert.equal((await verify(server, rx.link)).dispensed, true);
    });

    it('completes only when every medicament has reached its quantity', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const first = await asPharmacist(server, rx);
      assert.equal(first.dispensed, false);
      assert.equal('dispensed_at' in first || 'dispensed_by' in first, false);
      const last = await appends(
        rx.id,
        partial(rx.id, [item(MED_B, 8)], '', server.pharmacist2),
        'partial_dispense',
      );
      const result = await asPharmacist(server, rx);
      assert.equal(result.dispensed, true);
      assert.equal(result.dispensed_at, last.timestamp);
      assert.equal(result.dispensed_by, server.pharmacist2.sub);
    });

    it('answers the next partial dispense without force with exactly the seed 403', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1, Rep: 0 }]));
      await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const refused = partial(rx.id, [item(MED_A, 1)]);
      assertAlreadyDispensed(await refuses(rx.id, refused, 403, 'forbidden', 'unknown_error'));
    });

    it("accepts HIN's closing full dispensation once after partials completed it, then the seed 403", async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 2, Rep: 0 }]));
      await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const completing = await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const closing = await appends(rx.id, call.full(rx.id), 'full_dispense');
      assert.deepEqual(closing.event_data, {});
      const result = await asPharmacist(server, rx);
      assert.equal(result.dispensed, true);
      assert.equal(result.dispensed_at, completing.timestamp, 'the completion stays the partial');
      assert.deepEqual(result.medicaments, [
        { id: MED_A, prescribed: 2, dispensed: 2, remaining: 0, substitution_allowed: true },
      ]);
      for (const refused of [call.full(rx.id), partial(rx.id, [item(MED_A, 1)])]) {
        assertAlreadyDispensed(await refuses(rx.id, refused, 403, 'forbidden', 'unknown_error'));
      }
    });

    it('offers no closing step while a full dispensation stands', async () => {
      const done = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1 }]));
      await appends(done.id, call.full(done.id), 'full_dispense');
      const again = await refuses(done.id, call.full(done.id), 403, 'forbidden', 'unknown_error');
      assertAlreadyDispensed(again);
      // Partials completed it, then a forced full dispensation: that one stands.
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1 }]));
      await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const forced = await appends(rx.id, call.full(rx.id, '?force=true'), 'full_dispense');
      assertForced(forced, ['already_dispensed']);
      assertAlreadyDispensed(
        await refuses(rx.id, call.full(rx.id), 403, 'forbidden', 'unknown_error'),
      );
    });

    it('records a forced dispense of a completed prescription with what it overrode', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1, Rep: 0 }]));
      const completing = await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const forced = await appends(
        rx.id,
        partial(rx.id, [item(MED_A, 1)], '?force=true'),
        'partial_dispense',
      );
      assertForced(forced, ['already_dispensed', 'quantity_exceeded']);
      const full = await appends(rx.id, call.full(rx.id, '?force=true'), 'full_dispense');
      assertForced(full, ['already_dispensed']);
      const result = await asPharmacist(server, rx);
      // The forced events are in the history; the completion stays the first event's.
      const shown = new Map((result.events as JsonObject[]).map((e) => [e.id, e.event_data]));
      assert.deepEqual(shown.get(forced.id), forced.event_data);
      assert.deepEqual(shown.get(full.id), full.event_data);
      assert.equal(result.dispensed_at, completing.timestamp);
      assert.deepEqual(result.medicaments, [
        { id: MED_A, prescribed: 1, dispensed: 2, remaining: 0, substitution_allowed: true },
      ]);
    });
  });

  describe('cancelling a dispense gives its packages back', () => {
    it('clears dispensed, dispensed_at and dispensed_by when the completing event is cancelled', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 2 }]));
      await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      const completing = await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
      assert.equal((await asPharmacist(server, rx)).dispensed, true);
      await appends(rx.id, call.cancel(rx.id, completing.id, server.pharmacist), 'cancel');
      const result = await asPharmacist(server, rx);
      assert.equal(result.dispensed, false);
      assert.equal('dispensed_at' in result, false);
      assert.equal('dispensed_by' in result, false);
      assert.deepEqual(result.medicaments, [
        { id: MED_A, prescribed: 2, dispensed: 1, remaining: 1, substitution_allowed: true },
      ]);
      assert.equal((await verify(server, rx.link)).dispensed, false);
      // The package given back may be dispensed again, which completes the prescription anew.
      const again = await appends(
        rx.id,
        partial(rx.id, [item(MED_A, 1)], '', server.pharmacist2),
        'partial_dispense',
      );
      const completed = await asPharmacist(server, rx);
      assert.equal(completed.dispensed_at, again.timestamp);
      assert.equal(completed.dispensed_by, server.pharmacist2.sub);
    });

    it('gives back what a cancelled full dispensation took', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, partial(rx.id, [item(MED_B, 2)]), 'partial_dispense');
      const full = await appends(rx.id, call.full(rx.id), 'full_dispense');
      await appends(rx.id, call.cancel(rx.id, full.id, server.pharmacist), 'cancel');
      const result = await asPharmacist(server, rx);
      assert.equal(result.dispensed, false);
      assert.deepEqual(result.medicaments, [
        { id: MED_A, prescribed: 1, dispensed: 0, remaining: 1, substitution_allowed: true },
        { id: MED_B, prescribed: 8, dispensed: 2, remaining: 6, substitution_allowed: false },
      ]);
    });
  });

  it('keeps what a full dispensation handed out when an earlier partial is cancelled after it', async () => {
    const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1, Rep: 2 }]));
    await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
    const second = await appends(rx.id, partial(rx.id, [item(MED_A, 1)]), 'partial_dispense');
    const full = await appends(rx.id, call.full(rx.id), 'full_dispense');
    await appends(rx.id, call.cancel(rx.id, second.id, server.pharmacist), 'cancel');
    // Two packages were handed out: the first partial's and the one the full dispensation took.
    const result = await asPharmacist(server, rx);
    assert.deepEqual(result.medicaments, [
      { id: MED_A, prescribed: 3, dispensed: 2, remaining: 1, substitution_allowed: true },
    ]);
    // SPEC.md §5: dispensed while a non-cancelled full dispensation stands.
    assert.equal(result.dispensed, true);
    assert.equal(result.dispensed_at, full.timestamp);
    assert.deepEqual(
      result.partial_dispensations.map((p: JsonObject) => p.amount),
      [1],
    );
  });

  describe('substitution', () => {
    it('refuses a substitute for Subs 1 and accepts one for Subs 0', async () => {
      const rx = await createPrescription(
        server,
        prescribing([
          { Id: MED_A, NbPack: 2, Subs: 0 },
          { Id: MED_B, NbPack: 2, Subs: 1 },
        ]),
      );
      const refused = await refuses(
        rx.id,
        partial(rx.id, [item(MED_A, 1, SUBSTITUTE), item(MED_B, 1, SUBSTITUTE)]),
        403,
        'forbidden',
        'substitution_not_allowed',
      );
      assert.ok((refused.json.message as string).includes(MED_B), refused.json.message);
      const event = await appends(
        rx.id,
        partial(rx.id, [item(MED_A, 1, SUBSTITUTE), item(MED_B, 1)]),
        'partial_dispense',
      );
      assert.deepEqual(event.event_data, {});
      const flags = (await asPharmacist(server, rx)).medicaments.map(
        (m: JsonObject) => m.substitution_allowed,
      );
      assert.deepEqual(flags, [true, false]);
    });

    it('records a forced substitute for Subs 1 with its override', async () => {
      const rx = await createPrescription(server);
      const event = await appends(
        rx.id,
        partial(rx.id, [item(MED_B, 1, SUBSTITUTE)], '?force=true'),
        'partial_dispense',
      );
      assertForced(event, ['substitution_not_allowed']);
      assert.deepEqual(event.dispenses, [item(MED_B, 1, SUBSTITUTE)]);
    });
  });

  describe('force and event data', () => {
    it('keeps event_data {} on unforced dispensations, in the answer and in the history', async () => {
      const rx = await createPrescription(server);
      const events = [
        await appends(rx.id, partial(rx.id, [item(MED_B, 1)]), 'partial_dispense'),
        await appends(rx.id, partial(rx.id, [item(MED_B, 1)], '?force=false'), 'partial_dispense'),
        await appends(rx.id, call.full(rx.id), 'full_dispense'),
      ];
      const history = (await asPharmacist(server, rx)).events as JsonObject[];
      for (const event of events) {
        assert.deepEqual(event.event_data, {});
        assert.deepEqual(history.find((e) => e.id === event.id)?.event_data, {});
      }
    });

    it('reads force as HTTP clients send booleans: 1 and True force, 0 and FALSE do not', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_A, NbPack: 1 }]));
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      for (const query of ['?force=0', '?force=FALSE']) {
        await refuses(rx.id, call.full(rx.id, query), 403, 'forbidden', 'unknown_error');
      }
      for (const query of ['?force=1', '?force=True']) {
        const forced = await appends(rx.id, call.full(rx.id, query), 'full_dispense');
        assertForced(forced, ['already_dispensed']);
      }
    });

    it('records the reason of a forced dispensation, also one that overrode nothing', async () => {
      const rx = await createPrescription(server);
      const reason = 'Notfall, Arzt telefonisch erreicht';
      const event = await appends(
        rx.id,
        partial(rx.id, [item(MED_A, 1)], `?force=true&reason=${encodeURIComponent(reason)}`),
        'partial_dispense',
      );
      assertForced(event, [], reason);
      const history = (await asPharmacist(server, rx)).events as JsonObject[];
      assert.deepEqual(history.find((e) => e.id === event.id)?.event_data, event.event_data);
    });

    it('lists several overrides in the order of SPEC.md §10', async () => {
      const rx = await createPrescription(server, prescribing([{ Id: MED_B, NbPack: 1, Subs: 1 }]));
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      const event = await appends(
        rx.id,
        partial(rx.id, [item(MED_B, 2, SUBSTITUTE)], '?force=true&reason=Lieferengpass'),
        'partial_dispense',
      );
      assertForced(
        event,
        ['already_dispensed', 'quantity_exceeded', 'substitution_not_allowed'],
        'Lieferengpass',
      );
    });

    it('refuses a reason without force=true with 400', async () => {
      const rx = await createPrescription(server);
      for (const query of ['?reason=Notfall', '?force=false&reason=Notfall']) {
        await refuses(rx.id, partial(rx.id, [item(MED_A, 1)], query), 400, 'bad_request');
        await refuses(rx.id, call.full(rx.id, query), 400, 'bad_request');
      }
    });
  });

  describe('validity', () => {
    const short = useTestServer({ env: { ERX_PRESCRIPTION_VALIDITY: '3s' } });
    const on = expectationsOn(short);
    const shortCalls = calls(short);
    const everyRepZero = (overrides: Record<string, unknown> = {}) =>
      prescribing(
        [
          { Id: MED_A, NbPack: 1, Rep: 0, Subs: 0 },
          { Id: MED_B, NbPack: 2, Rep: 0, Subs: 1 },
        ],
        overrides,
      );

    it('refuses a dispense after expires_at, records a forced one, and shows expired', async () => {
      const doc = everyRepZero();
      const dt = Date.parse(doc.Dt as string);
      const rx = await createPrescription(short, doc);
      // Dated as the first one, so both have expired once the wait below is over.
      const other = await createPrescription(short, everyRepZero({ Dt: doc.Dt }));
      const fresh = await verify(short, rx.link, short.pharmacist.token);
      // On a loaded machine the three calls above may outlast the 3 s themselves.
      if (Date.now() < dt + 3_000) assert.equal(fresh.expired, false);
      assert.equal(Date.parse(fresh.expires_at), dt + 3_000);

      await waitUntil(() => Date.now() >= dt + 4_000, 10_000);
      for (const refused of [
        shortCalls.full(rx.id),
        shortCalls.dispenseItems(rx.id, short.pharmacist, [item(MED_A, 1)]),
      ]) {
        await on.refuses(rx.id, refused, 403, 'forbidden', 'expired');
      }
      const forced = await on.appends(
        rx.id,
        shortCalls.full(rx.id, '?force=true'),
        'full_dispense',
      );
      assertForced(forced, ['expired']);
      const result = await verify(short, rx.link, short.pharmacist.token);
      assert.equal(result.expired, true);
      assert.equal(Date.parse(result.expires_at), dt + 3_000);
      assert.match(result.expires_at, /Z$/);
      assert.equal(result.dispensed, true);

      // All four refusals at once, overridden in the order of SPEC.md §10.
      const all = await on.appends(
        rx.id,
        shortCalls.dispenseItems(
          rx.id,
          short.pharmacist,
          [item(MED_B, 3, SUBSTITUTE)],
          '?force=true',
        ),
        'partial_dispense',
      );
      assertForced(all, [
        'already_dispensed',
        'quantity_exceeded',
        'substitution_not_allowed',
        'expired',
      ]);

      // Only dispense is refused: an expired prescription can still be locked and revoked.
      await on.appends(other.id, shortCalls.lock(other.id, short.pharmacist), 'lock');
      await on.refuses(other.id, shortCalls.full(other.id), 403, 'forbidden', 'expired');
      await on.appends(other.id, shortCalls.revoke(other.id, short.doctor), 'revoke');
    });

    it('refuses to create a document whose Dt is 10 s in the past (400 at /Dt)', async () => {
      const doc = everyRepZero({ Dt: new Date(Date.now() - 10_000).toISOString() });
      const answer = await short.request(
        'POST',
        '/ePrescription/create?output-format=data',
        json(doc, { token: short.doctor.token }),
      );
      assertError(answer, 400, 'bad_request');
      const paths = (answer.json.violations as JsonObject[]).map((v) => v.path);
      assert.deepEqual(paths, ['/Dt']);
      assert.equal(await eventCount(short, doc.Id as string), 0);
    });

    it('extends validity to the largest Rep in months', async () => {
      const dt = Date.now() - 10_000;
      const doc = prescribing([{ Id: MED_A, NbPack: 1, Rep: 1 }], {
        Dt: new Date(dt).toISOString(),
      });
      const rx = await createPrescription(short, doc);
      const result = await verify(short, rx.link, short.pharmacist.token);
      assert.equal(result.expired, false);
      const validFor = Date.parse(result.expires_at) - dt;
      assert.ok(validFor >= 28 * 86_400_000 && validFor <= 31 * 86_400_000, result.expires_at);
      await on.appends(rx.id, shortCalls.full(rx.id), 'full_dispense');
    });
  });

  describe('locks lapse', () => {
    // The service's clock, moved ahead to let the lock lapse (a short real lock could lapse on a
    // busy machine before the checks made while it holds).
    let ahead = 0;
    const brief = useTestServer({
      env: { ERX_LOCK_TTL: '2m' },
      runtime: { now: () => Date.now() + ahead },
    });
    const on = expectationsOn(brief);
    const briefCalls = calls(brief);

    it('holds a lock for ERX_LOCK_TTL, naming its holder, then lets another pharmacist dispense', async () => {
      const rx = await createPrescription(brief);
      const lock = await on.appends(rx.id, briefCalls.lock(rx.id, brief.pharmacist), 'lock');
      const expiresAt = Date.parse(lock.event_data.expires_at);
      assert.deepEqual(Object.keys(lock.event_data), ['expires_at']);
      assert.equal(expiresAt - Date.parse(lock.timestamp), 120_000);

      const refused = await on.refuses(
        rx.id,
        briefCalls.dispenseFull(rx.id, brief.pharmacist2),
        423,
        'locked',
      );
      assert.ok((refused.json.message as string).includes(brief.pharmacist.name));
      const held = await verify(brief, rx.link, brief.pharmacist2.token);
      assert.equal(held.locked, true);
      assert.equal(held.locked_by, brief.pharmacist.name);
      assert.equal(held.locked_at, lock.timestamp);

      ahead = 121_000;
      const lapsed = await verify(brief, rx.link, brief.pharmacist2.token);
      assert.equal(lapsed.locked, false);
      assert.equal('locked_at' in lapsed || 'locked_by' in lapsed, false);
      await on.appends(rx.id, briefCalls.dispenseFull(rx.id, brief.pharmacist2), 'full_dispense');
      // No lock holds any more: unlocking is a conflict, locking again is allowed.
      await on.refuses(rx.id, briefCalls.unlock(rx.id, brief.pharmacist), 409, 'conflict');
      await on.appends(rx.id, briefCalls.lock(rx.id, brief.pharmacist2), 'lock');
    });
  });

  describe('locks: the issuer and the reason', () => {
    it('lets the issuer revoke while a pharmacy holds the lock', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      assert.equal((await asPharmacist(server, rx)).revoked, true);
    });

    it('lets the issuer lock and unlock, and refuses another prescriber (403)', async () => {
      const rx = await createPrescription(server);
      await refuses(rx.id, call.lock(rx.id, server.doctor2), 403, 'forbidden');
      const lock = await appends(rx.id, call.lock(rx.id, server.doctor), 'lock');
      assert.equal(lock.actor, server.doctor.sub);
      const held = await asPharmacist(server, rx);
      assert.equal(held.locked_by, server.doctor.name);
      await refuses(rx.id, call.dispenseFull(rx.id, server.pharmacist), 423, 'locked');
      await refuses(rx.id, call.unlock(rx.id, server.doctor2), 403, 'forbidden');
      await appends(rx.id, call.unlock(rx.id, server.doctor), 'unlock');
      // The issuer also unlocks a pharmacy's lock.
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await refuses(rx.id, call.unlock(rx.id, server.doctor2), 403, 'forbidden');
      await appends(rx.id, call.unlock(rx.id, server.doctor), 'unlock');
      assert.equal((await asPharmacist(server, rx)).locked, false);
    });

    it('takes the reason as a JSON body', async () => {
      const rx = await createPrescription(server);
      const body = (reason: string) => json({ reason });
      const lock = await appends(
        rx.id,
        call.post(`/ePrescription/lock/${rx.id}`, server.pharmacist, body('Beratung')),
        'lock',
      );
      assert.equal(lock.event_data.reason, 'Beratung');
      assert.deepEqual(Object.keys(lock.event_data).sort(), ['expires_at', 'reason']);
      const unlock = await appends(
        rx.id,
        call.post(`/ePrescription/unlock/${rx.id}`, server.pharmacist, body('Fertig')),
        'unlock',
      );
      assert.deepEqual(unlock.event_data, { reason: 'Fertig' });
    });

    it('refuses a reason given both in the query and in the body (400)', async () => {
      const rx = await createPrescription(server);
      const both = (action: string) =>
        call.post(
          `/ePrescription/${action}/${rx.id}?reason=Eins`,
          server.pharmacist,
          json({ reason: 'Zwei' }),
        );
      await refuses(rx.id, both('lock'), 400, 'bad_request');
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await refuses(rx.id, both('unlock'), 400, 'bad_request');
    });
  });

  describe('ids', () => {
    const create = (doc: Record<string, unknown>) =>
      server.request(
        'POST',
        '/ePrescription/create?output-format=data',
        json(doc, { token: server.doctor.token }),
      );

    it('refuses an upper-case copy of an existing id with 409', async () => {
      const rx = await createPrescription(server);
      await refuses(
        rx.id,
        () => create(samplePrescription({ Id: rx.id.toUpperCase() })),
        409,
        'conflict',
      );
    });

    it('acts on the same prescription when a call names its id in upper case', async () => {
      const rx = await createPrescription(server);
      const upper = rx.id.toUpperCase();
      const event = await appends(rx.id, partial(upper, [item(MED_A, 1)]), 'partial_dispense');
      assert.equal(event.reference, rx.id);
      await appends(rx.id, call.lock(upper, server.pharmacist), 'lock');
      const result = await asPharmacist(server, rx);
      assert.equal(result.locked, true);
      assert.equal(result.medicaments[0].dispensed, 1);
    });

    it('stores an upper-case id in lower case and verifies its link', async () => {
      const doc = samplePrescription();
      const id = (doc.Id as string).toLowerCase();
      const answer = await create({ ...doc, Id: id.toUpperCase() });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.prescription_id, id);
      const rx: Created = { id, link: answer.json.SignedPrescriptionData };
      await appends(id, call.full(id.toUpperCase()), 'full_dispense');
      for (const token of [undefined, server.pharmacist.token]) {
        const result = await verify(server, rx.link, token);
        assert.equal(result.prescription_id, id);
        assert.equal(result.valid, true);
        assert.equal(result.dispensed, true);
      }
    });

    it('refuses the nil UUID at create (400 at /Id)', async () => {
      const nil = '00000000-0000-0000-0000-000000000000';
      const answer = await create(samplePrescription({ Id: nil }));
      assertError(answer, 400, 'bad_request');
      assert.deepEqual(
        (answer.json.violations as JsonObject[]).map((v) => v.path),
        ['/Id'],
      );
      assert.equal(await eventCount(server, nil), 0);
    });
  });
});
