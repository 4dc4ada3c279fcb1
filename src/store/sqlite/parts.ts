/**
 * The SQLite store's small parts (`Store.idempotency`, `.verifiedHeads`, `.prescriptions`): reads
 * on the store's connection, writes through its group commit, so a write is acknowledged only once
 * it is on disk.
 */
import { termsText, toIdempotency, toVerifiedHead } from '../records.js';
import type { IdempotencyStore, PrescriptionStore, VerifiedHeadStore } from '../parts.js';
import type { IdempotencyRow, StoredTerms, VerifiedHeadRow } from '../types.js';
import type { GroupCommit } from './group-commit.js';
import { putVerifiedHeadRecord } from './statements.js';
import type { SqliteStatements } from './statements.js';

/** Remembered calls on SQLite. */
export class SqliteIdempotency implements IdempotencyStore {
  constructor(
    private readonly stmts: SqliteStatements,
    private readonly commits: GroupCommit,
  ) {}

  async get(actor: string, key: string): Promise<IdempotencyRow | undefined> {
    const r = this.stmts.getIdempotency.get(actor, key);
    return r ? toIdempotency(r) : undefined;
  }

  async purge(before: number): Promise<number> {
    return this.commits.run(() => this.stmts.purgeIdempotency.run(before).changes);
  }
}

/** Sealed verified heads on SQLite. */
export class SqliteVerifiedHeads implements VerifiedHeadStore {
  constructor(
    private readonly stmts: SqliteStatements,
    private readonly commits: GroupCommit,
  ) {}

  async get(prescriptionId: string): Promise<VerifiedHeadRow | undefined> {
    const r = this.stmts.getVerifiedHead.get(prescriptionId);
    return r ? toVerifiedHead(r) : undefined;
  }

  async put(row: VerifiedHeadRow): Promise<void> {
    await this.commits.run(() => putVerifiedHeadRecord(this.stmts, row));
  }
}

/** Every prescription on SQLite; `forget` drops a remembered chain whose row changes. */
export class SqlitePrescriptions implements PrescriptionStore {
  constructor(
    private readonly stmts: SqliteStatements,
    private readonly commits: GroupCommit,
    private readonly forget: (prescriptionId: string) => void,
  ) {}

  async ids(after: string | undefined, limit: number): Promise<string[]> {
    return this.stmts.listIds.all(after ?? '', limit).map((r) => r.id);
  }

  async count(): Promise<number> {
    return this.stmts.count.get()?.n ?? 0;
  }

  async addTerms(prescriptionId: string, terms: StoredTerms): Promise<boolean> {
    return this.commits.run(() => {
      this.forget(prescriptionId);
      return this.stmts.addTerms.run(termsText(terms), prescriptionId).changes === 1;
    });
  }
}
