/**
 * Contract: the event feed (`Store.sequenceFeed`, `feedHead`, `readFeed`, `listIssued`). Every
 * event gets a position 1, 2, 3, … in commit order without gaps; a viewer reads the positions it
 * may see; a reader that pages with the cursor rule of the service collects every event exactly
 * once while instances append and number concurrently.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { seesFeedRow } from '../../src/store/feed-rows.js';
import { StaleHead } from '../../src/store/races.js';
import type { EventRow, FeedEvent, FeedRow, FeedViewer, Store } from '../../src/store/types.js';
import { appendHeld, chainOf, decideNext, newPrescription, withFixture } from './fixture.js';
import type { OpenFixture } from './fixture.js';

const DOC1: FeedViewer = { role: 'prescriber', sub: 'HIN|doc1' };
const DOC2: FeedViewer = { role: 'prescriber', sub: 'HIN|doc2' };
const PH1: FeedViewer = { role: 'pharmacist', sub: 'HIN|pharma1' };
const PH2: FeedViewer = { role: 'pharmacist', sub: 'HIN|pharma2' };
const PH3: FeedViewer = { role: 'pharmacist', sub: 'HIN|pharma3' };

/** An event body with what the feed reads from it (the store keeps the text as it is). */
function body(actor: string, type: string, eventData: Record<string, string> = {}): string {
  return JSON.stringify({ actor, event_data: eventData, type });
}

/** Numbers what has committed (PostgreSQL; nothing to do on SQLite), as the service does. */
async function settle(store: Store): Promise<void> {
  await store.feed.sequence();
}

/** Issues prescription `id` as `issuer` (create event by the issuer), numbered. */
async function issue(store: Store, id: string, issuer: string): Promise<EventRow> {
  const p = newPrescription(id, body(issuer, 'create'));
  await store.insertPrescription({ ...p.row, issuerActor: issuer }, p.create);
  await settle(store);
  return p.create.event;
}

/** Appends an event of `actor` of `type` to `id`, numbered. */
async function act(
  store: Store,
  id: string,
  actor: string,
  type: string,
  eventData?: Record<string, string>,
): Promise<EventRow> {
  const event = await appendHeld(store, id, decideNext({ body: body(actor, type, eventData) }));
  await settle(store);
  return event;
}

/** Everything `viewer` may see, in one read. */
async function readAll(store: Store, viewer: FeedViewer): Promise<FeedRow[]> {
  return store.feed.read(viewer, 0, await store.feed.head(), 1_000);
}

/** A feed row's event as stored, without the copies of its body (`FeedEvent`). */
function stored(event: FeedEvent): EventRow {
  const { prescriptionId, seq, id, parentHash, body, hash, signature } = event;
  return { prescriptionId, seq, id, parentHash, body, hash, signature };
}

/** Lets the event loop turn (SQLite's group commit runs then; its feed calls never wait). */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const ids = (rows: readonly FeedRow[]): string[] => rows.map((r) => r.event.id);

/**
 * A history on three prescriptions (prescribers doc1 and doc2, pharmacists 1 to 3), numbered
 * one event at a time, so positions are the order of the lines below.
 */
async function history(store: Store) {
  const p1 = [await issue(store, 'p1', DOC1.sub)];
  const p2 = [await issue(store, 'p2', DOC2.sub)];
  const p3 = [await issue(store, 'p3', DOC1.sub)];
  // Pharmacist 2 dispenses on p1 before pharmacist 1 has done anything there.
  p1.push(await act(store, 'p1', PH2.sub, 'partial_dispense'));
  p1.push(await act(store, 'p1', PH1.sub, 'lock'));
  p2.push(await act(store, 'p2', PH1.sub, 'full_dispense'));
  p1.push(await act(store, 'p1', PH2.sub, 'partial_dispense'));
  p1.push(await act(store, 'p1', PH2.sub, 'cancel', { EventId: p1[3]!.id }));
  p3.push(await act(store, 'p3', PH2.sub, 'partial_dispense'));
  p1.push(await act(store, 'p1', DOC1.sub, 'unlock'));
  p1.push(await act(store, 'p1', PH2.sub, 'future_type'));
  p1.push(await act(store, 'p1', DOC1.sub, 'revoke'));
  return { p1, p2, p3 };
}

/**
 * Pages through the feed as the service answers it: number what committed, take the head, read
 * at most `limit` after the cursor; the next cursor is the last row's position when the page is
 * full, else the head (everything up to it has been seen).
 */
async function page(
  store: Store,
  viewer: FeedViewer,
  after: number,
  limit: number,
): Promise<{ rows: FeedRow[]; next: number }> {
  await store.feed.sequence();
  const head = await store.feed.head();
  const rows = await store.feed.read(viewer, after, head, limit);
  return { rows, next: rows.length === limit ? rows.at(-1)!.position : head };
}

/** Registers the feed tests of the contract. */
export function feedContract(open: OpenFixture): void {
  it('numbers events from 1 in commit order, without gaps, and the head follows', () =>
    withFixture(open, async ({ store }) => {
      assert.equal(await store.feed.head(), 0);
      assert.equal(await store.feed.sequence(), 0);
      assert.deepEqual(await readAll(store, DOC1), []);
      const committed = [
        await issue(store, 'a', DOC1.sub),
        await act(store, 'a', PH1.sub, 'lock'),
        await issue(store, 'b', DOC1.sub),
        await act(store, 'b', PH1.sub, 'partial_dispense'),
        await act(store, 'a', PH1.sub, 'unlock'),
      ];
      const rows = await readAll(store, DOC1);
      assert.deepEqual(
        rows.map((r) => r.position),
        [1, 2, 3, 4, 5],
      );
      assert.deepEqual(
        rows.map((r) => stored(r.event)),
        committed,
      );
      // With the copies of each body the reads select by.
      for (const { event } of rows) {
        const body = JSON.parse(event.body) as { actor: string; type: string };
        assert.deepEqual([event.actor, event.type, event.cancels], [body.actor, body.type, null]);
      }
      assert.equal(await store.feed.head(), 5);
      assert.equal(await store.feed.sequence(), 0);
    }));

  it('numbers what several instances append at once exactly once, each chain in order', () =>
    withFixture(open, async ({ store, openSibling }) => {
      const instances = [store, await openSibling(), await openSibling()];
      for (const id of ['c1', 'c2', 'c3']) await issue(store, id, DOC1.sub);
      const appends = Array.from({ length: 36 }, (_, i) =>
        appendHeld(
          instances[i % 3]!,
          `c${(Math.floor(i / 3) % 3) + 1}`,
          decideNext({ maxDelayMs: 2, body: body(PH1.sub, 'partial_dispense') }),
        ),
      );
      let appending = true;
      const numbering = instances.map(async (s) => {
        while (appending) {
          await s.feed.sequence();
          await sleep(1);
        }
      });
      const results = await Promise.allSettled(appends);
      appending = false;
      await Promise.all(numbering);
      for (const r of results) {
        if (r.status === 'rejected') assert.ok(r.reason instanceof StaleHead, String(r.reason));
      }
      await settle(store);
      const stored = (
        await Promise.all(
          ['c1', 'c2', 'c3'].map((id) => chainOf(store, id).then((c) => c?.events ?? [])),
        )
      ).flat();
      const rows = await readAll(instances[1]!, DOC1);
      assert.deepEqual(
        rows.map((r) => r.position),
        stored.map((_, i) => i + 1),
      );
      assert.deepEqual(new Set(ids(rows)), new Set(stored.map((e) => e.id)));
      assert.equal(await store.feed.head(), stored.length);
      assertChainOrder(rows);
    }));

  it('shows the issuer every event of its prescriptions, another prescriber none of them', () =>
    withFixture(open, async ({ store }) => {
      const { p1, p2, p3 } = await history(store);
      assert.deepEqual(
        ids(await readAll(store, DOC1)),
        [p1[0], p3[0], p1[1], p1[2], p1[3], p1[4], p3[1], p1[5], p1[6], p1[7]].map((e) => e!.id),
      );
      assert.deepEqual(ids(await readAll(store, DOC2)), [p2[0]!.id, p2[1]!.id]);
      assert.deepEqual(await readAll(store, { role: 'prescriber', sub: 'HIN|nobody' }), []);
    }));

  it('shows a pharmacist its own events, and those of others after its first dispense or cancel there', () =>
    withFixture(open, async ({ store }) => {
      const { p1, p2, p3 } = await history(store);
      // Pharmacist 1 only locked p1: a lock alone does not involve it (SPEC.md §10), so it sees
      // its own lock and its dispense on p2, and none of the others' events on p1.
      assert.deepEqual(ids(await readAll(store, PH1)), [p1[2]!.id, p2[1]!.id]);
      // Pharmacist 2 acted on p1 first: it sees the lock, unlock and revoke by others there.
      assert.deepEqual(ids(await readAll(store, PH2)), [
        p1[1]!.id,
        p1[2]!.id,
        p1[3]!.id,
        p1[4]!.id,
        p3[1]!.id,
        p1[5]!.id,
        p1[6]!.id,
        p1[7]!.id,
      ]);
      assert.deepEqual(await readAll(store, PH3), []);
      // The viewer's role decides, not only its subject: a prescriber named like a pharmacist
      // sees what it issued (nothing), not the pharmacist's events.
      assert.deepEqual(await readAll(store, { role: 'prescriber', sub: PH1.sub }), []);
    }));

  it('marks an event cancelled once a cancel names it', () =>
    withFixture(open, async ({ store }) => {
      const { p1 } = await history(store);
      const rows = await readAll(store, DOC1);
      assert.deepEqual(
        rows.filter((r) => r.cancelled).map((r) => r.event.id),
        [p1[3]!.id],
      );
      const dispense = rows.find((r) => r.event.id === p1[3]!.id);
      assert.ok(dispense);
      assert.deepEqual(stored(dispense.event), p1[3]);
      // The cancel that names it comes beside it, for the service to check.
      assert.equal(dispense.evidence?.canceller?.id, p1[4]!.id);
    }));

  it('reads within (after, upTo], at most limit rows, in position order', () =>
    withFixture(open, async ({ store }) => {
      await history(store);
      const head = await store.feed.head();
      assert.equal(head, 12);
      const all = await readAll(store, DOC1);
      const positions = (rows: FeedRow[]): number[] => rows.map((r) => r.position);
      assert.deepEqual(positions(all), [1, 3, 4, 5, 7, 8, 9, 10, 11, 12]);
      assert.deepEqual(positions(await store.feed.read(DOC1, 3, 9, 100)), [4, 5, 7, 8, 9]);
      assert.deepEqual(positions(await store.feed.read(DOC1, 3, 9, 2)), [4, 5]);
      assert.deepEqual(positions(await store.feed.read(DOC1, 5, 6, 100)), []);
      assert.deepEqual(positions(await store.feed.read(DOC1, head, head + 10, 100)), []);
      assert.deepEqual(positions(await store.feed.read(DOC1, 9, 3, 100)), []);
      assert.deepEqual(positions(await store.feed.read(DOC1, 0, head, 0)), []);
      assert.deepEqual(positions(await store.feed.read(PH1, 4, 12, 2)), [5, 6]);
    }));

  it('reads a window whose filter by viewer is, for every viewer and range, what readFeed reads', () =>
    withFixture(open, async ({ store }) => {
      await history(store);
      const head = await store.feed.head();
      const window = await store.feed.readWindow(0, head, 1_000);
      assert.deepEqual(
        window.map((r) => r.position),
        Array.from({ length: head }, (_, i) => i + 1),
      );
      const strangers: FeedViewer[] = [
        { role: 'pharmacist', sub: 'HIN|nobody' },
        { role: 'prescriber', sub: PH1.sub },
        { role: 'pharmacist', sub: DOC1.sub },
      ];
      for (const viewer of [DOC1, DOC2, PH1, PH2, PH3, ...strangers]) {
        for (let after = 0; after <= head; after += 1) {
          for (const upTo of [after + 1, after + 3, head]) {
            const read = await store.feed.read(viewer, after, upTo, 1_000);
            const filtered = (await store.feed.readWindow(after, upTo, 1_000)).filter((r) =>
              seesFeedRow(viewer, r),
            );
            const strip = (rows: FeedRow[]): FeedRow[] =>
              rows.map(({ position, event, cancelled }) => ({ position, event, cancelled }));
            // The evidence beside a row is the read's (its reader's own involvement only).
            assert.deepEqual(
              strip(filtered),
              strip(read),
              `${viewer.role} ${viewer.sub} (${after}, ${upTo}]`,
            );
          }
        }
      }
      assert.deepEqual(
        (await store.feed.readWindow(3, 9, 2)).map((r) => r.position),
        [4, 5],
      );
      assert.deepEqual(await store.feed.readWindow(9, 3, 100), []);
      assert.deepEqual(await store.feed.readWindow(0, head, 0), []);
    }));

  it('lists the prescriptions an issuer issued, in id order, in pages', () =>
    withFixture(open, async ({ store }) => {
      for (const [id, issuer] of [
        ['id-3', DOC1.sub],
        ['id-1', DOC1.sub],
        ['id-4', DOC2.sub],
        ['id-2', DOC1.sub],
        ['id-5', DOC1.sub],
      ] as const) {
        await issue(store, id, issuer);
      }
      assert.deepEqual(await store.feed.listIssued(DOC1.sub, undefined, 2), ['id-1', 'id-2']);
      assert.deepEqual(await store.feed.listIssued(DOC1.sub, 'id-2', 2), ['id-3', 'id-5']);
      assert.deepEqual(await store.feed.listIssued(DOC1.sub, 'id-5', 2), []);
      assert.deepEqual(await store.feed.listIssued(DOC2.sub, undefined, 10), ['id-4']);
      assert.deepEqual(await store.feed.listIssued(PH1.sub, undefined, 10), []);
    }));

  it('gives a reader paging by 7 every event once while instances append and number', () =>
    withFixture(open, async ({ store, openSibling }) => {
      const instances = [store, await openSibling(), await openSibling()];
      const prescriptions = Array.from({ length: 6 }, (_, i) => `r${i}`);
      await Promise.all(
        prescriptions.map((id, i) => {
          const p = newPrescription(id, body(DOC1.sub, 'create'));
          return instances[i % 3]!.insertPrescription(p.row, p.create);
        }),
      );
      let appending = true;
      // Set once the appends and the other instances' numbering are over: a page read after
      // that, by an instance that then numbers alone, sees everything.
      let settled = false;
      const seen: FeedRow[] = [];
      let after = 0;
      const reader = (async () => {
        for (;;) {
          const last = settled;
          const { rows, next } = await page(instances[2]!, DOC1, after, 7);
          // The issuer sees every event: a page continues right after the cursor.
          rows.forEach((r, i) => assert.equal(r.position, after + i + 1));
          seen.push(...rows);
          after = next;
          if (last && rows.length < 7) return;
          await tick();
        }
      })();
      const numbering = instances.map(async (s) => {
        while (appending) {
          await s.feed.sequence();
          await sleep(1);
        }
      });
      // Each instance appends in rounds of three concurrent appends, so the reader's pages
      // fall between, and during, commits of all three.
      const writers = instances.map(async (s, w) => {
        for (let round = 0; round < 10; round++) {
          const appends = [0, 1, 2].map((i) =>
            appendHeld(
              s,
              prescriptions[(round * 3 + i + w) % prescriptions.length]!,
              decideNext({ maxDelayMs: 3, body: body(PH1.sub, 'partial_dispense') }),
            ),
          );
          for (const r of await Promise.allSettled(appends)) {
            if (r.status === 'rejected') assert.ok(r.reason instanceof StaleHead, String(r.reason));
          }
        }
      });
      // Every task runs to its end before the test does (the stores close after it).
      const written = await Promise.allSettled(writers);
      appending = false;
      await Promise.all(numbering);
      settled = true;
      await reader;
      for (const r of written) if (r.status === 'rejected') throw r.reason;
      const stored = (
        await Promise.all(
          prescriptions.map((id) => chainOf(store, id).then((c) => c?.events ?? [])),
        )
      ).flat();
      assert.equal(seen.length, stored.length);
      assert.deepEqual(new Set(ids(seen)), new Set(stored.map((e) => e.id)));
      assert.equal(after, stored.length);
      assertChainOrder(seen);
    }));
}

/** Each prescription's events appear in the order of its chain. */
function assertChainOrder(rows: readonly FeedRow[]): void {
  const last = new Map<string, number>();
  for (const { event } of rows) {
    const before = last.get(event.prescriptionId) ?? -1;
    assert.equal(event.seq, before + 1, `${event.prescriptionId} seq ${event.seq} after ${before}`);
    last.set(event.prescriptionId, event.seq);
  }
}
