/**
 * What the store contract runs on, and the rows it writes. Hashes, signatures and bodies are plain
 * strings: the store never interprets them, it only keeps them exactly and keeps chains linear.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { KeyedMutex } from '../../src/keyed-mutex.js';
import { NoSuchPrescription } from '../../src/store/races.js';
import type {
  AppendDecision,
  ClientRow,
  ChainState,
  EventRow,
  IdempotencyRow,
  PrescriptionRow,
  Store,
  TokenRow,
} from '../../src/store/types.js';

/** A migrated, empty store, and how to open a second one on the same database or file. */
export interface StoreFixture {
  readonly store: Store;
  /** Another store on the same data, as another process would open it (migrated). */
  openSibling(): Promise<Store>;
  /** Closes every store opened here and removes the data. */
  cleanup(): Promise<void>;
}

/** Opens a fresh fixture for one test. */
export type OpenFixture = () => Promise<StoreFixture>;

/** Runs `fn` on a fresh fixture, cleaning up afterwards whatever happens. */
export async function withFixture(
  open: OpenFixture,
  fn: (f: StoreFixture) => Promise<void>,
): Promise<void> {
  const f = await open();
  try {
    await fn(f);
  } finally {
    await f.cleanup();
  }
}

/** An event with made-up hash and signature strings (unique per event). */
export function fakeEvent(
  prescriptionId: string,
  seq: number,
  parentHash: string | null,
  body?: string,
): EventRow {
  const id = randomUUID();
  return {
    prescriptionId,
    seq,
    id,
    parentHash,
    body: body ?? `{"id":"${id}","seq":${seq}}`,
    hash: `hash-${id}`,
    signature: `eyJhbGciOiJFUzM4NCJ9.${id}.sig-${seq}_-`,
  };
}

/** A prescription row with its create event, ready for `insertPrescription`. */
export function newPrescription(
  id: string = randomUUID(),
  createBody?: string,
): { row: PrescriptionRow; create: AppendDecision } {
  const event = fakeEvent(id, 0, null, createBody);
  return {
    row: {
      id,
      issuer: 'Dr. Müller (HIN|doc1)',
      issuerActor: 'HIN|doc1',
      // Past 2038 on purpose: seconds that do not fit a 32-bit column.
      issuedAt: 4_102_444_800,
      medicaments: [
        { Id: '7680123456789', IdType: 2, NbPack: 2, Rep: 3, Subs: 1 },
        { Id: 'Aspirin 500', IdType: 1 },
      ],
      headHash: event.hash,
      // Milliseconds past 2^32 seconds' worth: the column must keep them exactly.
      terms: { expiresAt: 4_134_067_200_123, signature: 'ab'.repeat(64) },
    },
    create: { event },
  };
}

/** Inserts a fresh prescription and returns it. */
export async function insertNew(
  store: Store,
  id?: string,
): Promise<{ row: PrescriptionRow; create: AppendDecision }> {
  const p = newPrescription(id);
  await store.insertPrescription(p.row, p.create);
  return p;
}

/** A remembered call of `actor` with `key`. */
export function idempotencyRow(
  actor: string,
  key: string,
  prescriptionId: string,
  eventId: string,
  createdAt = 1_700_000_000_000,
): IdempotencyRow {
  return { actor, key, requestHash: `req-${key}`, prescriptionId, eventId, createdAt };
}

/** The next link of the chain as `decide` sees it, after waiting up to `maxDelayMs`. */
export function decideNext(
  options: {
    maxDelayMs?: number;
    body?: string;
    idempotency?: (e: EventRow) => IdempotencyRow;
  } = {},
): (state: ChainState) => Promise<AppendDecision> {
  return async (state) => {
    // Awaiting inside decide is what the service does (it signs): it must not let another append in.
    await sleep(Math.random() * (options.maxDelayMs ?? 0));
    const last = state.events[state.events.length - 1];
    assert.ok(last, 'the chain always has its create event');
    const event = fakeEvent(state.prescription.id, last.seq + 1, last.hash, options.body);
    return options.idempotency ? { event, idempotency: options.idempotency(event) } : { event };
  };
}

/** One lock per store, as the service has one per runtime (`ServiceDeps.appendLocks`). */
const appendLocks = new WeakMap<Store, KeyedMutex>();

/**
 * An append as the service makes one (`service/append.ts`), once: under this process's lock of
 * the prescription, holds the chain, lets `decide` choose the next event and hands it to the store.
 * `NoSuchPrescription` without calling `decide` when there is no chain; a head another process
 * moved meanwhile rejects with the store's `StaleHead`.
 */
export function appendHeld(
  store: Store,
  prescriptionId: string,
  decide: (state: ChainState) => Promise<AppendDecision>,
): Promise<EventRow> {
  let locks = appendLocks.get(store);
  if (locks === undefined) appendLocks.set(store, (locks = new KeyedMutex()));
  return locks.run(prescriptionId, async () => {
    const held = await store.holdChain(prescriptionId);
    if (held === undefined) throw new NoSuchPrescription();
    try {
      const decision = await decide(held.state);
      await held.append(decision);
      return decision.event;
    } finally {
      await held.release();
    }
  });
}

/** The chain as committed, without its snapshot name. */
export async function chainOf(
  store: Store,
  prescriptionId: string,
): Promise<ChainState | undefined> {
  return (await store.readChain(prescriptionId))?.state;
}

/** Asserts one linear chain: seq 0..n-1, each parent the previous hash, head the last hash. */
export async function assertLinear(store: Store, prescriptionId: string): Promise<EventRow[]> {
  const chain = (await store.readChain(prescriptionId))?.state;
  assert.ok(chain);
  const { prescription, events } = chain;
  events.forEach((e, i) => {
    assert.equal(e.seq, i);
    assert.equal(e.prescriptionId, prescriptionId);
    assert.equal(e.parentHash, i === 0 ? null : events[i - 1]?.hash);
  });
  assert.equal(
    new Set(events.map((e) => e.hash)).size,
    events.length,
    'no two events share a hash',
  );
  assert.equal(prescription.headHash, events[events.length - 1]?.hash);
  return events;
}

/** A client row. */
export function clientRow(clientId: string, role: ClientRow['role'] = 'pharmacist'): ClientRow {
  return {
    clientId,
    secretHash: `scrypt$N=16384,r=8,p=1$salt$${clientId}`,
    role,
    name: `Name of ${clientId}`,
    description: 'Apotheke am Platz – Zürich',
    sub: `HIN|${clientId}`,
    createdAt: 1_700_000_000_123,
  };
}

/** A token row of `clientId`. */
export function tokenRow(tokenHash: string, clientId: string, expiresAt: number): TokenRow {
  return { tokenHash, clientId, expiresAt, createdAt: expiresAt - 3_600_000 };
}
