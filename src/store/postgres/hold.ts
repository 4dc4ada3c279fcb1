/**
 * `Store.holdChain` on PostgreSQL: a transaction on one pooled connection that takes the
 * prescription's row lock (`SELECT … FOR UPDATE`) and reads the chain under it, then stays open
 * while the service decides and signs, so appends of one prescription from several instances wait
 * for each other instead of losing a race (SPEC.md §1, §7). The append writes in that transaction
 * and commits it; a release without one rolls it back. A busy prescription occupies one connection
 * per instance: the service serialises its own appends of a prescription before holding it.
 */
import type pg from 'pg';
import { toEvent, toPrescription } from '../records.js';
import type { EventRecord, PrescriptionRecord } from '../records.js';
import type { AppendDecision, ChainState, HeldChain } from '../types.js';
import { isUnavailable, unavailable } from './errors.js';
import { guarded } from './pool.js';
import { SQL } from './statements.js';
import { writeAppend } from './writes.js';

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Holds the chain of `prescriptionId` (see the file comment); undefined, holding nothing, if none. */
export async function holdChain(
  pool: pg.Pool,
  prescriptionId: string,
): Promise<HeldChain | undefined> {
  const client = await guarded(() => pool.connect());
  let broken: Error | undefined;
  // A connection that broke (or whose transaction state is unknown) is destroyed, not pooled.
  const discard = (error: Error): void => {
    broken ??= error;
  };
  client.on('error', discard);
  let inTransaction = false;
  let ended = false;
  const end = async (): Promise<void> => {
    if (ended) return;
    ended = true;
    if (inTransaction) {
      inTransaction = false;
      await client.query('ROLLBACK').catch((error: unknown) => discard(asError(error)));
    }
    client.removeListener('error', discard);
    client.release(broken);
  };
  // Any failure ends the hold (rolling back); "the database cannot answer" becomes a 503.
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      const down = isUnavailable(error);
      if (down) discard(asError(error));
      await end();
      throw down ? unavailable(error) : error;
    }
  };
  const state = await run(async (): Promise<ChainState | undefined> => {
    await client.query('BEGIN');
    inTransaction = true;
    const locked = await client.query<PrescriptionRecord>(SQL.lockPrescription, [prescriptionId]);
    if (!locked.rows[0]) return undefined;
    const events = await client.query<EventRecord>(SQL.getEvents, [prescriptionId]);
    return { prescription: toPrescription(locked.rows[0]), events: events.rows.map(toEvent) };
  });
  if (state === undefined) {
    await end();
    return undefined;
  }
  return {
    state,
    append: (decision: AppendDecision) =>
      run(async () => {
        if (ended) throw new Error('the hold on this chain has ended');
        await writeAppend(client, decision, state.prescription.headHash);
        await client.query('COMMIT');
        inTransaction = false;
        await end();
      }),
    release: end,
  };
}
