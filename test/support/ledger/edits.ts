/**
 * Test support for the mutation suite: every single-field edit of an event body, and the
 * rewrite of the rest of a chain that an attacker without the signing keys could do.
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from '../../../src/ledger/canonical-json.js';
import { EVENT_TYPES } from '../../../src/ledger/event.js';
import type { LedgerRecord } from '../../../src/ledger/event.js';
import { sha256Hex } from '../../../src/ledger/hash.js';
import { formatTimestamp, parseTimestamp } from '../../../src/ledger/timestamp.js';

export type Body = Record<string, unknown>;

/** The stored body, parsed. */
export function bodyOf(record: LedgerRecord): Body {
  return JSON.parse(record.body) as Body;
}

/** The hash of the last event (what the store keeps as head). */
export function head(events: readonly LedgerRecord[]): string {
  return events.at(-1)?.hash ?? '';
}

/** A hex string with its last digit changed. */
export function flipHex(hex: string): string {
  const last = hex.slice(-1);
  return hex.slice(0, -1) + (last === '0' ? '1' : '0');
}

/** One value changed the way an editor would: new ids, +1, another type, a flipped digit. */
export function changed(key: string, value: unknown): unknown {
  if (key === 'id' || key === 'reference' || key === 'EventId') return randomUUID();
  if (key === 'type')
    return EVENT_TYPES[(EVENT_TYPES.indexOf(value as never) + 1) % EVENT_TYPES.length];
  if (key === 'timestamp') return formatTimestamp(parseTimestamp(value as string).epochNanos + 1n);
  if (key === 'parent_hash' || key === 'prescription_hash') return flipHex(value as string);
  if (key === 'substitute_id_type') return ((value as number) % 3) + 1;
  if (typeof value === 'number') return value + 1;
  return `${String(value)}x`;
}

/** Every single-field edit of one body, by name. */
export function bodyEdits(body: Body): Array<[string, (b: Body) => void]> {
  const edits: Array<[string, (b: Body) => void]> = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'event_data') {
      const data = value as Body;
      edits.push(['event_data added', (b) => void ((b.event_data as Body).reason = 'added')]);
      for (const field of Object.keys(data)) {
        edits.push([
          `event_data.${field} changed`,
          (b) => void ((b.event_data as Body)[field] = changed(field, data[field])),
        ]);
        edits.push([
          `event_data.${field} removed`,
          (b) => void delete (b.event_data as Body)[field],
        ]);
      }
    } else if (key === 'dispenses') {
      const items = value as Body[];
      items.forEach((item, j) => {
        for (const field of Object.keys(item)) {
          edits.push([
            `dispenses[${j}].${field} changed`,
            (b) => void ((b.dispenses as Body[])[j]![field] = changed(field, item[field])),
          ]);
          if (field.startsWith('substitute')) {
            edits.push([
              `dispenses[${j}].${field} removed`,
              (b) => void delete (b.dispenses as Body[])[j]![field],
            ]);
          }
        }
        if (item.substitute === undefined) {
          edits.push([
            `dispenses[${j}] substitute added`,
            (b) =>
              Object.assign((b.dispenses as Body[])[j]!, {
                substitute: 'x',
                substitute_id_type: 3,
              }),
          ]);
        }
        edits.push([`dispenses[${j}] removed`, (b) => void (b.dispenses as Body[]).splice(j, 1)]);
      });
      edits.push([
        'dispenses item added',
        (b) => void (b.dispenses as Body[]).push({ id: 'x', amount: 1 }),
      ]);
    } else {
      edits.push([`${key} changed`, (b) => void (b[key] = changed(key, value))]);
      if (key === 'actor' || key === 'actor_name')
        edits.push([`${key} emptied`, (b) => void (b[key] = '')]);
    }
    edits.push([`${key} removed`, (b) => void delete b[key]]);
  }
  if (body.parent_hash === undefined)
    edits.push(['parent_hash added', (b) => void (b.parent_hash = 'a'.repeat(64))]);
  if (body.prescription_hash === undefined)
    edits.push(['prescription_hash added', (b) => void (b.prescription_hash = 'b'.repeat(64))]);
  if (body.dispenses === undefined)
    edits.push(['dispenses added', (b) => void (b.dispenses = [{ id: '1234567', amount: 1 }])]);
  edits.push(['unknown field added', (b) => void (b.note = 'x')]);
  return edits;
}

/** Rewrites events after `from` so every later link and the head match (an attacker without keys). */
export function cascade(events: LedgerRecord[], from: number): void {
  for (let j = from + 1; j < events.length; j++) {
    const body = bodyOf(events[j]!);
    body.parent_hash = events[j - 1]!.hash;
    const text = canonicalJson(body);
    events[j] = { ...events[j]!, body: text, hash: sha256Hex(text) };
  }
}
