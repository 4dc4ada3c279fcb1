/** The embedded token service's clients and tokens on PostgreSQL (`Store.clients`). */
import type pg from 'pg';
import type { ClientStore } from '../parts.js';
import { AlreadyExists } from '../races.js';
import { toClient, toToken } from '../records.js';
import type { ClientRecord, TokenRecord } from '../records.js';
import type { ClientRow, TokenRow } from '../types.js';
import { violatedUniqueConstraint } from './errors.js';
import { queryPool } from './pool.js';
import { SQL } from './statements.js';

/** Clients and tokens over the store's pool. */
export class PostgresClients implements ClientStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  #query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
    return queryPool<R>(this.#pool, text, values);
  }

  async add(row: ClientRow): Promise<void> {
    try {
      await this.#query(SQL.addClient, [
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
      if (violatedUniqueConstraint(error) === 'clients_pkey') throw new AlreadyExists('client');
      throw error;
    }
  }

  async get(clientId: string): Promise<ClientRow | undefined> {
    const { rows } = await this.#query<ClientRecord>(SQL.getClient, [clientId]);
    return rows[0] ? toClient(rows[0]) : undefined;
  }

  async list(): Promise<ClientRow[]> {
    return (await this.#query<ClientRecord>(SQL.listClients)).rows.map(toClient);
  }

  async remove(clientId: string): Promise<boolean> {
    return (await this.#query(SQL.removeClient, [clientId])).rowCount === 1;
  }

  async setProfile(clientId: string, profile: string | null): Promise<boolean> {
    return (await this.#query(SQL.setClientProfile, [clientId, profile])).rowCount === 1;
  }

  async replaceSecretHash(
    clientId: string,
    expected: string,
    replacement: string,
  ): Promise<boolean> {
    const result = await this.#query(SQL.replaceClientSecretHash, [
      clientId,
      expected,
      replacement,
    ]);
    return result.rowCount === 1;
  }

  async insertToken(row: TokenRow): Promise<void> {
    await this.#query(SQL.insertToken, [row.tokenHash, row.clientId, row.expiresAt, row.createdAt]);
  }

  async getToken(tokenHash: string): Promise<TokenRow | undefined> {
    const { rows } = await this.#query<TokenRecord>(SQL.getToken, [tokenHash]);
    return rows[0] ? toToken(rows[0]) : undefined;
  }

  async purgeTokens(before: number): Promise<number> {
    return (await this.#query(SQL.purgeTokens, [before])).rowCount ?? 0;
  }
}
