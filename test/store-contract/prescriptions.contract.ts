/** Contract: lifecycle, prescriptions with their create events, reads, paging and exact bodies. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LATEST_SCHEMA_VERSION } from '../../src/store/migrations.js';
import { appendHeld, fakeEvent, insertNew, newPrescription, withFixture } from './fixture.js';
import type { OpenFixture } from './fixture.js';
import { AlreadyExists } from '../../src/store/races.js';

/**
 * Event bodies as the ledger might hold them. Each must come back identical (SPEC.md §7: the exact
 * signed bytes, not a re-serialised JSON value). A raw U+0000 is absent on purpose: PostgreSQL
 * text cannot hold it, and canonical JSON always writes it as the escape `\u0000`, as below.
 */
export const TRICKY_BODIES: readonly string[] = [
  '{"b":2,"a":1}',
  '{ "spaced" : [ 1 , 2.50 ] }\n',
  '{"n":1.0,"e":1E2,"big":123456789012345678901234567890,"neg":-0}',
  '{"dup":1,"dup":2}',
  '{"text":"Grüezi Zürich – Genève ☤ 💊 日本語 e\u0301 \u00a0 \u2028"}',
  '{"escapes":"\\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u0000 \\ud83d\\udc8a"}',
  '\r\n\t{"crlf":true}\r\n',
  `{"long":"${'Pharmazie ✓ 💊 '.repeat(12_000)}"}`,
];

/** Registers the prescription tests of the contract. */
export function prescriptionContract(open: OpenFixture): void {
  it('migrates again without change, reports the latest schema version, pings, closes twice', () =>
    withFixture(open, async ({ store }) => {
      await store.migrate();
      await store.migrate();
      assert.equal(await store.schemaVersion(), LATEST_SCHEMA_VERSION);
      await store.ping();
      await store.close();
      await store.close();
    }));

  it('stores a prescription with its create event and reads both back', () =>
    withFixture(open, async ({ store }) => {
      const { row, create } = await insertNew(store);
      assert.deepEqual((await store.readChain(row.id))?.state.prescription, row);
      assert.deepEqual((await store.readChain(row.id))?.state.events ?? [], [create.event]);
      assert.deepEqual(await store.getEvent(create.event.id), create.event);
      assert.deepEqual((await store.readChain(row.id))?.state, {
        prescription: row,
        events: [create.event],
      });
    }));

  it('adds terms to a prescription without any, once, and to no other', () =>
    withFixture(open, async ({ store }) => {
      const fresh = newPrescription();
      const old = { ...fresh.row };
      delete old.terms;
      await store.insertPrescription(old, fresh.create);
      assert.deepEqual((await store.readChain(old.id))?.state.prescription, old);
      const terms = { expiresAt: 1_700_000_000_000, signature: 'cd'.repeat(64) };
      assert.equal(await store.prescriptions.addTerms(old.id, terms), true);
      assert.deepEqual((await store.readChain(old.id))?.state.prescription, { ...old, terms });
      assert.deepEqual((await store.readChain(old.id))?.state?.prescription, { ...old, terms });
      assert.equal(await store.prescriptions.addTerms(old.id, { ...terms, expiresAt: 1 }), false);
      assert.deepEqual((await store.readChain(old.id))?.state.prescription?.terms, terms);
      assert.equal(await store.prescriptions.addTerms('unknown', terms), false);
    }));

  it('answers undefined for an unknown prescription or event', () =>
    withFixture(open, async ({ store }) => {
      await insertNew(store);
      assert.equal((await store.readChain('unknown'))?.state.prescription, undefined);
      assert.equal((await store.readChain('unknown'))?.state, undefined);
      assert.deepEqual((await store.readChain('unknown'))?.state.events ?? [], []);
      assert.equal(await store.getEvent('unknown'), undefined);
    }));

  it('refuses a second prescription with the same id as conflict and keeps the first', () =>
    withFixture(open, async ({ store }) => {
      const first = await insertNew(store);
      const again = newPrescription(first.row.id);
      await assert.rejects(
        store.insertPrescription(again.row, again.create),
        (e: unknown) => e instanceof AlreadyExists && e.what === 'prescription',
      );
      assert.deepEqual((await store.readChain(first.row.id))?.state.events ?? [], [
        first.create.event,
      ]);
      assert.equal(await store.getEvent(again.create.event.id), undefined);
      assert.equal(await store.prescriptions.count(), 1);
    }));

  it('refuses a create event whose id exists already, writing nothing', () =>
    withFixture(open, async ({ store }) => {
      const first = await insertNew(store);
      const other = newPrescription();
      const clash = { ...other.create.event, id: first.create.event.id };
      await assert.rejects(
        store.insertPrescription(other.row, { event: clash }),
        (e: unknown) => e instanceof Error && !(e instanceof AlreadyExists),
      );
      assert.equal((await store.readChain(other.row.id))?.state.prescription, undefined);
      assert.equal(await store.prescriptions.count(), 1);
    }));

  it('creates concurrently: one winner per id, every other attempt a conflict', () =>
    withFixture(open, async ({ store }) => {
      const ids = ['p-a', 'p-b', 'p-c'];
      const attempts = ids.flatMap((id) => [1, 2, 3, 4].map(() => newPrescription(id)));
      const results = await Promise.allSettled(
        attempts.map((p) => store.insertPrescription(p.row, p.create)),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, ids.length);
      for (const r of results) {
        if (r.status === 'rejected')
          assert.ok(r.reason instanceof AlreadyExists && r.reason.what === 'prescription');
      }
      for (const id of ids)
        assert.equal(((await store.readChain(id))?.state.events ?? []).length, 1);
      assert.equal(await store.prescriptions.count(), ids.length);
    }));

  it('pages prescription ids in byte order and counts them', () =>
    withFixture(open, async ({ store }) => {
      assert.equal(await store.prescriptions.count(), 0);
      assert.deepEqual(await store.prescriptions.ids(undefined, 10), []);
      const ids = ['b-3', 'a-1', 'B-2', '0-9', 'a-10'];
      for (const id of ids) await insertNew(store, id);
      const pages: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.prescriptions.ids(after, 2);
        if (page.length === 0) break;
        pages.push(page);
        after = page[page.length - 1];
      }
      assert.deepEqual(pages, [['0-9', 'B-2'], ['a-1', 'a-10'], ['b-3']]);
      assert.equal(await store.prescriptions.count(), ids.length);
    }));

  it('keeps every event body, hash and signature byte for byte', () =>
    withFixture(open, async ({ store }) => {
      const [createBody, ...rest] = TRICKY_BODIES;
      const p = newPrescription(undefined, createBody);
      await store.insertPrescription(p.row, p.create);
      const written = [p.create.event];
      for (const body of rest) {
        const last = written[written.length - 1]!;
        const event = fakeEvent(p.row.id, last.seq + 1, last.hash, body);
        written.push(await appendHeld(store, p.row.id, async () => ({ event })));
      }
      const read = (await store.readChain(p.row.id))?.state.events ?? [];
      assert.deepEqual(
        read.map((e) => e.body),
        TRICKY_BODIES,
      );
      for (const [i, e] of read.entries()) {
        assert.ok(Buffer.from(e.body, 'utf8').equals(Buffer.from(TRICKY_BODIES[i]!, 'utf8')));
        assert.deepEqual(e, written[i]);
        assert.deepEqual(await store.getEvent(e.id), written[i]);
      }
      assert.deepEqual((await store.readChain(p.row.id))?.state?.events, written);
    }));
}
