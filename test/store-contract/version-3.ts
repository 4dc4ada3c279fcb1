/**
 * A database written before the event feed (schema version 3), for each engine's migration
 * test: the rows, and what the feed must answer once migration 4 has numbered them.
 */
import assert from 'node:assert/strict';
import { MIGRATIONS } from '../../src/store/migrations.js';
import type { FeedViewer, Store } from '../../src/store/types.js';
import { appendHeld, decideNext } from './fixture.js';

/** The migrations a version-3 database has had, in order. */
export const UP_TO_VERSION_3 = MIGRATIONS.filter((m) => m.version <= 3);

/** A prescription row as version 3 stored it (`event_count` no longer written). */
export interface Version3Prescription {
  id: string;
  issuer: string;
  issuer_actor: string;
  issued_at: number;
  medicaments: string;
  head_hash: string;
  terms: string | null;
}

/** An event row as version 3 stored it. */
export interface Version3Event {
  prescription_id: string;
  seq: number;
  id: string;
  parent_hash: string | null;
  body: string;
  hash: string;
  signature: string;
}

function event(prescriptionId: string, seq: number, body: string): Version3Event {
  return {
    prescription_id: prescriptionId,
    seq,
    id: `${prescriptionId}-e${seq}`,
    parent_hash: seq === 0 ? null : `hash-${prescriptionId}-${seq - 1}`,
    body,
    hash: `hash-${prescriptionId}-${seq}`,
    signature: `sig-${prescriptionId}-${seq}`,
  };
}

const json = (actor: string, type: string, eventData: Record<string, string> = {}): string =>
  JSON.stringify({ actor, event_data: eventData, type });

/**
 * Two prescriptions: `v3-b` issued by doc1, locked by pharmacist 1, dispensed by pharmacist 2
 * who then cancelled that; `v3-a` issued by doc2 with an event whose body is not JSON (edited).
 * Inserted in this order; migration 4 numbers by prescription and chain: v3-a first.
 */
export const VERSION_3_EVENTS: readonly Version3Event[] = [
  event('v3-b', 0, json('HIN|doc1', 'create')),
  event('v3-b', 1, json('HIN|pharma1', 'lock')),
  event('v3-b', 2, json('HIN|pharma2', 'partial_dispense')),
  event('v3-b', 3, json('HIN|pharma2', 'cancel', { EventId: 'v3-b-e2' })),
  event('v3-a', 0, json('HIN|doc2', 'create')),
  event('v3-a', 1, 'not JSON: edited'),
];

function prescription(id: string, issuerActor: string, lastSeq: number): Version3Prescription {
  return {
    id,
    issuer: `Dr. X (${issuerActor})`,
    issuer_actor: issuerActor,
    issued_at: 1_700_000_000,
    medicaments: '[]',
    head_hash: `hash-${id}-${lastSeq}`,
    terms: null,
  };
}

export const VERSION_3_PRESCRIPTIONS: readonly Version3Prescription[] = [
  prescription('v3-b', 'HIN|doc1', 3),
  prescription('v3-a', 'HIN|doc2', 1),
];

const viewer = (role: FeedViewer['role'], name: string): FeedViewer => ({
  role,
  sub: `HIN|${name}`,
});

/**
 * Asserts what the feed answers over the migrated rows, then that an event appended now comes
 * next.
 */
export async function assertMigratedFeed(store: Store): Promise<void> {
  await store.feed.sequence();
  assert.equal(await store.feed.head(), 6);
  const read = async (v: FeedViewer): Promise<string[]> =>
    (await store.feed.read(v, 0, 6, 100)).map((r) => `${r.position}:${r.event.id}`);
  assert.deepEqual(await read(viewer('prescriber', 'doc2')), ['1:v3-a-e0', '2:v3-a-e1']);
  assert.deepEqual(await read(viewer('prescriber', 'doc1')), [
    '3:v3-b-e0',
    '4:v3-b-e1',
    '5:v3-b-e2',
    '6:v3-b-e3',
  ]);
  // Who acted and what each event is were read out of the bodies: pharmacist 1 only locked, which
  // involves no one (SPEC.md §10), so it sees its lock and not pharmacist 2's later events.
  assert.deepEqual(await read(viewer('pharmacist', 'pharma1')), ['4:v3-b-e1']);
  assert.deepEqual(await read(viewer('pharmacist', 'pharma2')), ['5:v3-b-e2', '6:v3-b-e3']);
  const cancelled = (await store.feed.read(viewer('prescriber', 'doc1'), 0, 6, 100)).filter(
    (r) => r.cancelled,
  );
  assert.deepEqual(
    cancelled.map((r) => r.event.id),
    ['v3-b-e2'],
  );
  // The events as stored, untouched, with the copies the migration read out of their bodies.
  const [first] = await store.feed.read(viewer('prescriber', 'doc1'), 2, 3, 1);
  assert.deepEqual(first?.event, {
    prescriptionId: 'v3-b',
    seq: 0,
    id: 'v3-b-e0',
    parentHash: null,
    body: VERSION_3_EVENTS[0]!.body,
    hash: 'hash-v3-b-0',
    signature: 'sig-v3-b-0',
    actor: 'HIN|doc1',
    type: 'create',
    cancels: null,
  });
  // Beside it, the chain's create event (itself), which the service checks for the issuer.
  assert.deepEqual(first?.evidence?.create, first?.event);
  const next = await appendHeld(store, 'v3-b', decideNext({ body: json('HIN|pharma1', 'unlock') }));
  await store.feed.sequence();
  assert.equal(await store.feed.head(), 7);
  const [appended] = await store.feed.read(viewer('pharmacist', 'pharma1'), 6, 7, 10);
  assert.equal(appended?.position, 7);
  assert.equal(appended?.event.id, next.id);
  assert.deepEqual(await store.feed.listIssued('HIN|doc1', undefined, 10), ['v3-b']);
}
