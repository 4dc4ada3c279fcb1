/**
 * The PostgreSQL store's writes of an append, inside a transaction the caller opened: the
 * compare-and-swap of the head first (its row lock makes a concurrent append of the same chain
 * wait, then find the head moved), then the event, the remembered call and the seal. Unique keys on
 * `(prescription_id, seq)` and `(prescription_id, parent_hash)` back the head up.
 */
import type { PoolClient } from 'pg';
import { IdempotencyRace, StaleHead } from '../races.js';
import type { AppendDecision, EventRow, IdempotencyRow, VerifiedHeadRow } from '../types.js';
import { violatedUniqueConstraint } from './errors.js';
import { SQL } from './statements.js';

/**
 * Writes `decision` and moves the head from `expectedHead` to its event; `StaleHead` when the head
 * is not `expectedHead` (or there is no such prescription), `IdempotencyRace` when the call is
 * remembered already. The caller rolls back on any error.
 */
export async function writeAppend(
  client: PoolClient,
  decision: AppendDecision,
  expectedHead: string,
): Promise<void> {
  const { event, idempotency, seal } = decision;
  try {
    const moved = await client.query(SQL.moveHead, [
      event.prescriptionId,
      event.hash,
      expectedHead,
    ]);
    if (moved.rowCount !== 1) throw new StaleHead();
    await insertEvent(client, event);
    if (idempotency) await insertIdempotency(client, idempotency);
    if (seal) await putVerifiedHead(client, seal);
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    if (constraint?.startsWith('events_')) throw new StaleHead();
    if (constraint === 'idempotency_pkey') throw new IdempotencyRace();
    throw error;
  }
}

export async function insertEvent(client: PoolClient, e: EventRow): Promise<void> {
  await client.query(SQL.insertEvent, [
    e.prescriptionId,
    e.seq,
    e.id,
    e.parentHash,
    e.body,
    e.hash,
    e.signature,
  ]);
}

export async function putVerifiedHead(client: PoolClient, row: VerifiedHeadRow): Promise<void> {
  await client.query(SQL.putVerifiedHead, [row.prescriptionId, row.headHash, row.seal]);
}

export async function insertIdempotency(client: PoolClient, r: IdempotencyRow): Promise<void> {
  await client.query(SQL.insertIdempotency, [
    r.actor,
    r.key,
    r.requestHash,
    r.prescriptionId,
    r.eventId,
    r.answer ?? null,
    r.createdAt,
  ]);
}
