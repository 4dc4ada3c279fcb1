/**
 * The PostgreSQL store's small parts (`Store.idempotency`, `.verifiedHeads`, `.prescriptions`),
 * one statement each on a pooled connection.
 */
import type pg from 'pg';
import type { IdempotencyStore, PrescriptionStore, VerifiedHeadStore } from '../parts.js';
import { termsText, toIdempotency, toVerifiedHead } from '../records.js';
import type { IdempotencyRecord, VerifiedHeadRecord } from '../records.js';
import type { IdempotencyRow, StoredTerms, VerifiedHeadRow } from '../types.js';
import { guarded, queryPool, withClient } from './pool.js';
import { SQL } from './statements.js';
import { putVerifiedHead } from './writes.js';

/** Remembered calls on PostgreSQL. */
export class PostgresIdempotency implements IdempotencyStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(actor: string, key: string): Promise<IdempotencyRow | undefined> {
    const { rows } = await queryPool<IdempotencyRecord>(this.pool, SQL.getIdempotency, [
      actor,
      key,
    ]);
    return rows[0] ? toIdempotency(rows[0]) : undefined;
  }

  async purge(before: number): Promise<number> {
    return (await queryPool(this.pool, SQL.purgeIdempotency, [before])).rowCount ?? 0;
  }
}

/** Sealed verified heads on PostgreSQL. */
export class PostgresVerifiedHeads implements VerifiedHeadStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(prescriptionId: string): Promise<VerifiedHeadRow | undefined> {
    const { rows } = await queryPool<VerifiedHeadRecord>(this.pool, SQL.getVerifiedHead, [
      prescriptionId,
    ]);
    return rows[0] ? toVerifiedHead(rows[0]) : undefined;
  }

  async put(row: VerifiedHeadRow): Promise<void> {
    await guarded(() => withClient(this.pool, (client) => putVerifiedHead(client, row)));
  }
}

/** Every prescription on PostgreSQL. */
export class PostgresPrescriptions implements PrescriptionStore {
  constructor(private readonly pool: pg.Pool) {}

  async ids(after: string | undefined, limit: number): Promise<string[]> {
    const { rows } = await queryPool<{ id: string }>(this.pool, SQL.listIds, [after ?? '', limit]);
    return rows.map((r) => r.id);
  }

  async count(): Promise<number> {
    const { rows } = await queryPool<{ n: string }>(this.pool, SQL.count);
    return Number(rows[0]?.n ?? 0);
  }

  async addTerms(prescriptionId: string, terms: StoredTerms): Promise<boolean> {
    const result = await queryPool(this.pool, SQL.addTerms, [prescriptionId, termsText(terms)]);
    return result.rowCount === 1;
  }
}
