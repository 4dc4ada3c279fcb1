/**
 * PostgreSQL implementation of {@link Store}, for several instances over one database (SPEC.md §1,
 * §7). Appends to one prescription are serialised across instances by a row lock on the
 * prescription (`SELECT … FOR UPDATE`) held while the next event is decided and signed, and inside
 * one instance by a keyed mutex first, so a busy prescription occupies one pooled connection per
 * instance, not the whole pool. Unique keys on `(prescription_id, seq)` and
 * `(prescription_id, parent_hash)` and a compare-and-set of the head back the lock up.
 * `synchronous_commit` is left at the server's default (on): an acknowledged event is durable.
 */
import type pg from 'pg';
import type { PoolClient } from 'pg';
import type { FeedRecord, FeedWindowRecord } from '../feed-rows.js';
import { toFeedRow, toFeedWindowRow } from '../feed-rows.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { AlreadyExists, IdempotencyRace, NoSuchPrescription, StaleHead } from '../races.js';
import type {
  ClientRecord,
  EventRecord,
  IdempotencyRecord,
  PrescriptionRecord,
  TokenRecord,
  VerifiedHeadRecord,
} from '../records.js';
import {
  medicamentsText,
  termsText,
  toClient,
  toEvent,
  toIdempotency,
  toPrescription,
  toToken,
  toVerifiedHead,
} from '../records.js';
import type {
  AppendDecision,
  ChainRead,
  ChainState,
  ClientRow,
  EventRow,
  FeedRow,
  FeedViewer,
  FeedWindowRow,
  IdempotencyRow,
  PrescriptionRow,
  Store,
  TokenRow,
  StoredTerms,
  VerifiedHeadRow,
} from '../types.js';
import type { ChainRecord } from './chain-record.js';
import { PostgresCatalog } from './catalog.js';
import { PostgresLog } from './log.js';
import { toChain } from './chain-record.js';
import { isUnavailable, unavailable, violatedUniqueConstraint } from './errors.js';
import { FEED_SQL, sequenceFeed } from './feed.js';
import { migratePostgres, postgresSchemaVersion } from './migrate.js';
import { createPool, withClient, withTransaction } from './pool.js';
import type { PostgresStoreOptions } from './pool.js';
import { SQL } from './statements.js';

export type { PostgresStoreOptions } from './pool.js';

/** Carries an error of the caller's `decide` through the transaction, so it is never remapped. */
class DecideFailed {
  constructor(readonly error: unknown) {}
}

/** Opens a PostgreSQL store on `url` (`postgres://…`); connects on first use, does not migrate. */
export function openPostgresStore(url: string, options: PostgresStoreOptions = {}): PostgresStore {
  return new PostgresStore(createPool(url, options));
}

/** The PostgreSQL store over one connection pool (use {@link openPostgresStore}). */
export class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #mutex = new KeyedMutex();
  #closed = false;
  readonly catalog: PostgresCatalog;
  readonly log: PostgresLog;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
    this.catalog = new PostgresCatalog(pool);
    this.log = new PostgresLog(pool);
  }

  /** Runs `fn`, turning "the database cannot answer" into `service_unavailable` (SPEC.md §8). */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof DecideFailed) throw error.error;
      if (isUnavailable(error)) throw unavailable(error);
      throw error;
    }
  }

  /** One statement on a pooled connection. */
  private query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    return this.guard(() => withClient(this.#pool, (client) => client.query<R>(text, values)));
  }

  async migrate(): Promise<void> {
    await this.guard(() => migratePostgres(this.#pool));
  }

  async schemaVersion(): Promise<number> {
    return this.guard(() => postgresSchemaVersion(this.#pool));
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }

  async insertPrescription(row: PrescriptionRow, create: AppendDecision): Promise<void> {
    try {
      await this.guard(() =>
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

  async getPrescription(id: string): Promise<PrescriptionRow | undefined> {
    const { rows } = await this.query<PrescriptionRecord>(SQL.getPrescription, [id]);
    return rows[0] ? toPrescription(rows[0]) : undefined;
  }

  async getEvents(prescriptionId: string): Promise<EventRow[]> {
    const { rows } = await this.query<EventRecord>(SQL.getEvents, [prescriptionId]);
    return rows.map(toEvent);
  }

  async getChain(prescriptionId: string): Promise<ChainState | undefined> {
    const { rows } = await this.query<ChainRecord>(SQL.getChain, [prescriptionId]);
    return toChain(rows);
  }

  async readChain(prescriptionId: string): Promise<ChainRead | undefined> {
    const state = await this.getChain(prescriptionId);
    return state && { state, snapshot: undefined };
  }

  async getEvent(eventId: string): Promise<EventRow | undefined> {
    const { rows } = await this.query<EventRecord>(SQL.getEvent, [eventId]);
    return rows[0] ? toEvent(rows[0]) : undefined;
  }

  appendEvent(
    prescriptionId: string,
    decide: (state: ChainState) => Promise<AppendDecision>,
  ): Promise<EventRow> {
    return this.#mutex.run(prescriptionId, () =>
      this.guard(() =>
        withTransaction(this.#pool, (client) => lockedAppend(client, prescriptionId, decide)),
      ),
    );
  }

  async getVerifiedHead(prescriptionId: string): Promise<VerifiedHeadRow | undefined> {
    const { rows } = await this.query<VerifiedHeadRecord>(SQL.getVerifiedHead, [prescriptionId]);
    return rows[0] ? toVerifiedHead(rows[0]) : undefined;
  }

  async putVerifiedHead(row: VerifiedHeadRow): Promise<void> {
    await this.guard(() => withClient(this.#pool, (client) => putVerifiedHead(client, row)));
  }

  async addTerms(prescriptionId: string, terms: StoredTerms): Promise<boolean> {
    const result = await this.query(SQL.addTerms, [prescriptionId, termsText(terms)]);
    return result.rowCount === 1;
  }

  async listPrescriptionIds(after: string | undefined, limit: number): Promise<string[]> {
    const { rows } = await this.query<{ id: string }>(SQL.listIds, [after ?? '', limit]);
    return rows.map((r) => r.id);
  }

  async countPrescriptions(): Promise<number> {
    const { rows } = await this.query<{ n: string }>(SQL.count);
    return Number(rows[0]?.n ?? 0);
  }

  async sequenceFeed(): Promise<number> {
    return this.guard(() => sequenceFeed(this.#pool));
  }

  async feedHead(): Promise<number> {
    const { rows } = await this.query<{ head: string }>(FEED_SQL.head);
    return Number(rows[0]?.head ?? 0);
  }

  async readFeed(
    viewer: FeedViewer,
    after: number,
    upTo: number,
    limit: number,
  ): Promise<FeedRow[]> {
    if (limit <= 0 || upTo <= after) return [];
    const sql = viewer.role === 'prescriber' ? FEED_SQL.issuer : FEED_SQL.pharmacist;
    const { rows } = await this.query<FeedRecord>(sql, [viewer.sub, after, upTo, limit]);
    return rows.map(toFeedRow);
  }

  async readFeedWindow(after: number, upTo: number, limit: number): Promise<FeedWindowRow[]> {
    if (limit <= 0 || upTo <= after) return [];
    const { rows } = await this.query<FeedWindowRecord>(FEED_SQL.window, [after, upTo, limit]);
    return rows.map(toFeedWindowRow);
  }

  async listIssued(
    issuerActor: string,
    after: string | undefined,
    limit: number,
  ): Promise<string[]> {
    const { rows } = await this.query<{ id: string }>(FEED_SQL.issued, [
      issuerActor,
      after ?? '',
      limit,
    ]);
    return rows.map((r) => r.id);
  }

  async getIdempotency(actor: string, key: string): Promise<IdempotencyRow | undefined> {
    const { rows } = await this.query<IdempotencyRecord>(SQL.getIdempotency, [actor, key]);
    return rows[0] ? toIdempotency(rows[0]) : undefined;
  }

  async purgeIdempotency(before: number): Promise<number> {
    return (await this.query(SQL.purgeIdempotency, [before])).rowCount ?? 0;
  }

  async addClient(row: ClientRow): Promise<void> {
    try {
      await this.query(SQL.addClient, [
        row.clientId,
        row.secretHash,
        row.role,
        row.name,
        row.description,
        row.sub,
        row.createdAt,
        row.profile ?? null,
      ]);
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'clients_pkey') {
        throw new AlreadyExists('client');
      }
      throw error;
    }
  }

  async getClient(clientId: string): Promise<ClientRow | undefined> {
    const { rows } = await this.query<ClientRecord>(SQL.getClient, [clientId]);
    return rows[0] ? toClient(rows[0]) : undefined;
  }

  async listClients(): Promise<ClientRow[]> {
    return (await this.query<ClientRecord>(SQL.listClients)).rows.map(toClient);
  }

  async removeClient(clientId: string): Promise<boolean> {
    return (await this.query(SQL.removeClient, [clientId])).rowCount === 1;
  }

  async setClientProfile(clientId: string, profile: string | null): Promise<boolean> {
    return (await this.query(SQL.setClientProfile, [clientId, profile])).rowCount === 1;
  }

  async replaceClientSecretHash(
    clientId: string,
    expected: string,
    replacement: string,
  ): Promise<boolean> {
    const result = await this.query(SQL.replaceClientSecretHash, [clientId, expected, replacement]);
    return result.rowCount === 1;
  }

  async insertToken(row: TokenRow): Promise<void> {
    await this.query(SQL.insertToken, [row.tokenHash, row.clientId, row.expiresAt, row.createdAt]);
  }

  async getToken(tokenHash: string): Promise<TokenRow | undefined> {
    const { rows } = await this.query<TokenRecord>(SQL.getToken, [tokenHash]);
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  async purgeTokens(before: number): Promise<number> {
    return (await this.query(SQL.purgeTokens, [before])).rowCount ?? 0;
  }
}

/**
 * The body of an append, inside its transaction: lock, read, decide, write. No retry on a stale
 * head, unlike SQLite: under the row lock the chain read is the chain written to, so a violation
 * here means the decision itself was wrong, and deciding again on the same chain would not help.
 */
async function lockedAppend(
  client: PoolClient,
  prescriptionId: string,
  decide: (state: ChainState) => Promise<AppendDecision>,
): Promise<EventRow> {
  const locked = await client.query<PrescriptionRecord>(SQL.lockPrescription, [prescriptionId]);
  if (!locked.rows[0]) throw new NoSuchPrescription();
  const events = await client.query<EventRecord>(SQL.getEvents, [prescriptionId]);
  const state: ChainState = {
    prescription: toPrescription(locked.rows[0]),
    events: events.rows.map(toEvent),
  };
  let decision: AppendDecision;
  try {
    decision = await decide(state);
  } catch (error) {
    throw new DecideFailed(error);
  }
  const { event, idempotency } = decision;
  try {
    await insertEvent(client, event);
    const moved = await client.query(SQL.moveHead, [
      prescriptionId,
      event.hash,
      state.prescription.headHash,
    ]);
    if (moved.rowCount !== 1) throw new StaleHead();
    if (idempotency) await insertIdempotency(client, idempotency);
    if (decision.seal) await putVerifiedHead(client, decision.seal);
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    if (constraint?.startsWith('events_')) throw new StaleHead();
    if (constraint === 'idempotency_pkey') throw new IdempotencyRace();
    throw error;
  }
  return event;
}

async function insertEvent(client: PoolClient, e: EventRow): Promise<void> {
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

async function putVerifiedHead(client: PoolClient, row: VerifiedHeadRow): Promise<void> {
  await client.query(SQL.putVerifiedHead, [row.prescriptionId, row.headHash, row.seal]);
}

async function insertIdempotency(client: PoolClient, r: IdempotencyRow): Promise<void> {
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
