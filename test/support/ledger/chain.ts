/**
 * Test support: a PKI in memory and realistic chains of every event type, with timestamps a
 * test chooses, so leaves of different times can be exercised.
 */
import { randomUUID } from 'node:crypto';
import type { Pki, Signer } from '../../../src/pki/index.js';
import { MemoryPkiStorage, openPki } from '../../../src/pki/index.js';
import { appendEvent } from '../../../src/ledger/append-event.js';
import { Clock } from '../../../src/ledger/clock.js';
import type { NewEvent } from '../../../src/ledger/append-event.js';
import type { SignedEvent } from '../../../src/ledger/event.js';
import { prescriptionHash } from '../../../src/ledger/prescription-hash.js';
import { formatTimestamp } from '../../../src/ledger/timestamp.js';

/** A fresh PKI whose keys live in memory only. */
export function memoryPki(options: { leafLifetimeMs?: number } = {}): Promise<Pki> {
  return openPki({ storage: new MemoryPkiStorage(), leafLifetimeMs: options.leafLifetimeMs });
}

/** `date` as an event timestamp, with a nanosecond digit so the fraction is never trimmed away. */
export function timestampAt(date: Date): string {
  return formatTimestamp(BigInt(date.getTime()) * 1_000_000n + 1n);
}

/** An event time `step` minutes after `start`, with nanosecond digits. */
export function eventTime(start: Date, step: number): string {
  const nanos =
    BigInt(start.getTime() + step * 60_000) * 1_000_000n + BigInt(step * 1_234_567 + 89);
  return formatTimestamp(nanos);
}

const PHARMACY = { actor: 'HIN|apotheke.zuerich', actor_name: 'Apotheke am Zürichsee' };
const DOCTOR = { actor: 'HIN|drmueller', actor_name: 'Dr. med. Anna Müller' };

/** A full prescription life in ten events (every type, items, reasons, a cancel); then dispenses. */
function template(index: number, previous: readonly SignedEvent[]): Omit<NewEvent, 'reference'> {
  switch (index) {
    case 0:
      return { type: 'create', ...DOCTOR, prescription_hash: prescriptionHash('CHMED16A1test') };
    case 1:
      return { type: 'lock', ...PHARMACY, event_data: { reason: 'Patientin am Schalter' } };
    case 2:
      return {
        type: 'partial_dispense',
        ...PHARMACY,
        dispenses: [
          { id: '7680123450123', amount: 1 },
          { id: '1234567', amount: 2, substitute: 'Dafalgan «Generikum»', substitute_id_type: 2 },
        ],
      };
    case 3:
      return { type: 'cancel', ...PHARMACY, event_data: { EventId: previous[2]?.id ?? '' } };
    case 4:
      return {
        type: 'partial_dispense',
        ...PHARMACY,
        dispenses: [{ id: '1234567', amount: 3, substitute: 'Magistral', substitute_id_type: 1 }],
      };
    case 5:
      return { type: 'unlock', ...PHARMACY };
    case 6:
      return { type: 'full_dispense', ...PHARMACY };
    case 7:
      return { type: 'lock', ...PHARMACY };
    case 8:
      return { type: 'unlock', ...DOCTOR, event_data: { reason: 'Rücksprache "erledigt"' } };
    case 9:
      return { type: 'revoke', ...DOCTOR };
    default:
      return { type: 'partial_dispense', ...PHARMACY, dispenses: [{ id: '1234567', amount: 1 }] };
  }
}

export interface ChainOptions {
  prescriptionId?: string;
  length?: number;
  /** Time of the create event; later events follow a minute apart. Default: an hour ago. */
  start?: Date;
  /** Minutes between events (default 1). */
  stepMinutes?: number;
}

/** Appends `length` (default 10) events for one prescription; index 0 is the create event. */
export async function makeChain(
  signer: Signer,
  options: ChainOptions = {},
): Promise<SignedEvent[]> {
  const reference = options.prescriptionId ?? randomUUID();
  const start = options.start ?? new Date(Date.now() - 60 * 60_000);
  const events: SignedEvent[] = [];
  for (let index = 0; index < (options.length ?? 10); index++) {
    const fields = template(index, events);
    const timestamp = eventTime(start, index * (options.stepMinutes ?? 1));
    const event = await appendEvent(
      events.at(-1),
      { ...fields, reference, timestamp },
      signer,
      new Clock(),
    );
    events.push(event);
  }
  return events;
}
