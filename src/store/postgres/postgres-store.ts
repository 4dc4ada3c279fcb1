/**
 * PostgreSQL implementation of {@link Store}, for several instances over one database (SPEC.md §1,
 * §7). An append moves the head only if it still is the one its decision was made on
 * (compare-and-swap, `./writes.ts`); the service decides on a chain it holds under the
 * prescription's row lock (`./hold.ts`), so appends of several instances wait for each other
 * rather than race. Unique keys on `(prescription_id, seq)` and `(prescription_id, parent_hash)`
 * back the head up. `synchronous_commit` is left at the server's default (on): an acknowledged
 * event is durable.
 */
import type pg from 'pg';
import { AlreadyExists, IdempotencyRace } from '../races.js';
import type { EventRecord } from '../records.js';
import { medicamentsText, termsText, toEvent } from '../records.js';
import type {
  AppendDecision,
  ChainRead,
  EventRow,
  HeldChain,
  PrescriptionRow,
  Store,
} from '../types.js';
import type { ChainRecord } from './chain-record.js';
import { PostgresCatalog } from './catalog.js';
import { PostgresClients } from './clients.js';
import { PostgresLog } from './log.js';
import { toChain } from './chain-record.js';
import { violatedUniqueConstraint } from './errors.js';
import { PostgresFeed } from './feed.js';
import { holdChain } from './hold.js';
import { migratePostgres, postgresSchemaVersion } from './migrate.js';
import { PostgresIdempotency, PostgresPrescriptions, PostgresVerifiedHeads } from './parts.js';
import { createPool, guarded, queryPool, withTransaction } from './pool.js';
import type { PostgresStoreOptions } from './pool.js';
import { SQL } from './statements.js';
import { insertEvent, insertIdempotency, putVerifiedHead, writeAppend } from './writes.js';

export type { PostgresStoreOptions } from './pool.js';

/** Opens a PostgreSQL store on `url` (`postgres://…`); connects on first use, does not migrate. */
export function openPostgresStore(url: string, options: PostgresStoreOptions = {}): PostgresStore {
  return new PostgresStore(createPool(url, options));
}

/** The PostgreSQL store over one connection pool (use {@link openPostgresStore}). */
export class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  readonly #pool: pg.Pool;
  #closed = false;
  readonly catalog: PostgresCatalog;
  readonly log: PostgresLog;
  readonly clients: PostgresClients;
  readonly feed: PostgresFeed;
  readonly idempotency: PostgresIdempotency;
  readonly verifiedHeads: PostgresVerifiedHeads;
  readonly prescriptions: PostgresPrescriptions;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
    this.catalog = new PostgresCatalog(pool);
    this.log = new PostgresLog(pool);
    this.clients = new PostgresClients(pool);
    this.feed = new PostgresFeed(pool);
    this.idempotency = new PostgresIdempotency(pool);
    this.verifiedHeads = new PostgresVerifiedHeads(pool);
    this.prescriptions = new PostgresPrescriptions(pool);
  }

  async migrate(): Promise<void> {
    await guarded(() => migratePostgres(this.#pool));
  }

  async schemaVersion(): Promise<number> {
    return guarded(() => postgresSchemaVersion(this.#pool));
  }

  async ping(): Promise<void> {
    await queryPool(this.#pool, 'SELECT 1');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }

  async insertPrescription(row: PrescriptionRow, create: AppendDecision): Promise<void> {
    try {
      await guarded(() =>
        // One transaction under the new primary key: a row lock cannot protect the very first
        // link of a chain, the key does (SPEC.md §7).
        withTransaction(this.#pool, async (client) => {
          // The remembered call first: a concurrent retry with the same key then waits for this
          // transaction and replays its answer instead of colliding on the prescription id.
          if (create.idempotency) await insertIdempotency(client, create.idempotency);
          await client.query(SQL.insertPrescription, [
            row.id,
            row.issuer,
            row.issuerActor,
            row.issuedAt,
            medicamentsText(row.medicaments),
            create.event.hash,
            termsText(row.terms),
          ]);
          await insertEvent(client, create.event);
          if (create.seal) await putVerifiedHead(client, create.seal);
        }),
      );
    } catch (error) {
      const constraint = violatedUniqueConstraint(error);
      if (constraint === 'prescriptions_pkey') {
        throw new AlreadyExists('prescription');
      }
      if (constraint === 'idempotency_pkey') throw new IdempotencyRace();
      throw error;
    }
  }

  /** One statement, hence one snapshot; nothing is remembered between reads here. */
  async readChain(prescriptionId: string): Promise<ChainRead | undefined> {
    const { rows } = await queryPool<ChainRecord>(this.#pool, SQL.getChain, [prescriptionId]);
    const state = toChain(rows);
    return state && { state, snapshot: undefined };
  }

  holdChain(prescriptionId: string): Promise<HeldChain | undefined> {
    return holdChain(this.#pool, prescriptionId);
  }

  async appendEvent(decision: AppendDecision, expectedHead: string): Promise<void> {
    await guarded(() =>
      withTransaction(this.#pool, (client) => writeAppend(client, decision, expectedHead)),
    );
  }

  async getEvent(eventId: string): Promise<EventRow | undefined> {
    const { rows } = await queryPool<EventRecord>(this.#pool, SQL.getEvent, [eventId]);
    return rows[0] ? toEvent(rows[0]) : undefined;
  }
}
