/**
 * The embedded token service's tables in SQLite: clients and their tokens. Writes go through the
 * store's group commit, so a client or token is acknowledged only once it is on disk.
 */
import { AlreadyExists } from '../races.js';
import { toClient, toToken } from '../records.js';
import type { ClientStore } from '../parts.js';
import type { ClientRow, TokenRow } from '../types.js';
import { isUniqueViolation } from './errors.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteStatements } from './statements.js';

/** Clients and tokens of one SQLite store (`Store.clients`). */
export class SqliteClients implements ClientStore {
  readonly #stmts: SqliteStatements;
  readonly #commits: GroupCommit;

  constructor(stmts: SqliteStatements, commits: GroupCommit) {
    this.#stmts = stmts;
    this.#commits = commits;
  }

  /** Registers a client; `AlreadyExists` if its id is taken. */
  async add(row: ClientRow): Promise<void> {
    try {
      await this.#commits.run(() => this.#stmts.addClient.run({ profile: null, ...row }));
    } catch (error) {
      if (isUniqueViolation(error, 'clients.')) throw new AlreadyExists('client');
      throw error;
    }
  }

  /** The client `clientId`, if registered. */
  async get(clientId: string): Promise<ClientRow | undefined> {
    const r = this.#stmts.getClient.get(clientId);
    return r ? toClient(r) : undefined;
  }

  /** Every client, in byte order of id. */
  async list(): Promise<ClientRow[]> {
    return this.#stmts.listClients.all().map(toClient);
  }

  /** Removes a client and, by cascade, its tokens; false if there was none. */
  async remove(clientId: string): Promise<boolean> {
    return this.#commits.run(() => this.#stmts.removeClient.run(clientId).changes === 1);
  }

  /** Sets or (null) removes a client's profile; false if there is no such client. */
  async setProfile(clientId: string, profile: string | null): Promise<boolean> {
    return this.#commits.run(() => this.#stmts.setProfile.run(profile, clientId).changes === 1);
  }

  /** Replaces the secret hash only while it is still `expected`. */
  async replaceSecretHash(
    clientId: string,
    expected: string,
    replacement: string,
  ): Promise<boolean> {
    return this.#commits.run(
      () => this.#stmts.replaceClientSecretHash.run(replacement, clientId, expected).changes === 1,
    );
  }

  /** Stores a token (its hash). */
  async insertToken(row: TokenRow): Promise<void> {
    await this.#commits.run(() => this.#stmts.insertToken.run({ ...row }));
  }

  /** The token whose hash is `tokenHash`, if stored. */
  async getToken(tokenHash: string): Promise<TokenRow | undefined> {
    const r = this.#stmts.getToken.get(tokenHash);
    return r ? toToken(r) : undefined;
  }

  /** Forgets tokens that expired before `before` (unix ms). */
  async purgeTokens(before: number): Promise<number> {
    return this.#commits.run(() => this.#stmts.purgeTokens.run(before).changes);
  }
}
