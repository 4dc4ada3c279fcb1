/**
 * Check 1 of SPEC.md §6 `logs_check_passed`, per event: the stored body bytes parse to a
 * well-formed canonical event, their SHA-256 is the stored hash, and the event belongs where it
 * is stored (its `reference` is the prescription, its `id` the stored id).
 */
import type { CheckFailure } from './chain-failure.js';
import type { EventBody, LedgerRecord } from './event.js';
import { sha256Hex } from './hash.js';
import { parseEventBody } from './parse-event-body.js';

export type EventHashCheck =
  { readonly ok: true; readonly body: EventBody } | ({ readonly ok: false } & CheckFailure);

/** Recomputes the hash of one stored event and checks what binds it to its prescription. */
export function checkEventHash(record: LedgerRecord, prescriptionId: string): EventHashCheck {
  const parsed = parseEventBody(record.body);
  if (!parsed.ok) return { ok: false, check: 'body', reason: parsed.reason };
  if (sha256Hex(record.body) !== record.hash) {
    return { ok: false, check: 'hash', reason: 'hash_mismatch' };
  }
  // An event replayed from another prescription has a valid hash and signature of its own.
  if (parsed.body.reference !== prescriptionId) {
    return { ok: false, check: 'reference', reason: 'wrong_reference' };
  }
  if (parsed.body.id !== record.id) return { ok: false, check: 'reference', reason: 'wrong_id' };
  return { ok: true, body: parsed.body };
}
