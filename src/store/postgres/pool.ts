/**
 * The one connection pool of a PostgreSQL store and the two ways the store borrows from it: a
 * client for a few statements, or a client inside one transaction. A borrowed client whose
 * connection broke is destroyed instead of returned, so the pool refills with fresh connections
 * once the server is back (SPEC.md §1: several instances over one PostgreSQL, restarts included).
 */
import pg from 'pg';
import type { PoolClient } from 'pg';
import { isUnavailable, unavailable } from './errors.js';

/** Tuning of a PostgreSQL store; every field has a default. */
export interface PostgresStoreOptions {
  /** Connections per instance (default 10). */
  poolSize?: number;
  /** Longest wait for a connection, new or pooled, before answering 503 (default 2,000 ms). */
  connectionTimeoutMillis?: number;
  /** Server-side cap on one statement, lock waits included (default 10,000 ms). */
  statementTimeoutMillis?: number;
  /**
   * Server-side cap on a transaction left idle (default 60,000 ms): an append holds the
   * prescription's row lock while the service decides and signs (`Store.holdChain`), and a stuck
   * caller must not hold it for ever.
   */
  idleInTransactionTimeoutMillis?: number;
  /** Told about errors of idle pooled connections (e.g. the server restarted); default: ignored. */
  onPoolError?: (error: Error) => void;
}

/** Margin of the client-side read timeout over the server's statement timeout. */
const READ_TIMEOUT_MARGIN_MS = 5_000;

/** Creates the pool for `url`; it connects lazily, on first use. */
export function createPool(url: string, options: PostgresStoreOptions = {}): pg.Pool {
  const statementTimeout = options.statementTimeoutMillis ?? 10_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    application_name: 'erx',
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2_000,
    statement_timeout: statementTimeout,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMillis ?? 60_000,
    // A server that vanished without closing the socket is noticed by this, not by waiting for ever.
    query_timeout: statementTimeout + READ_TIMEOUT_MARGIN_MS,
    keepAlive: true,
  });
  // Without a listener, an idle connection dropped by the server would crash the process; the pool
  // has already discarded that connection when this runs.
  pool.on('error', (error) => options.onPoolError?.(error));
  return pool;
}

/**
 * Runs `fn` with a borrowed client. `discard` marks the connection as unusable, so it is destroyed
 * rather than returned to the pool.
 */
export async function withClient<T>(
  pool: pg.Pool,
  fn: (client: PoolClient, discard: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const discard = (error: Error): void => {
    broken ??= error;
  };
  // The pool only listens to idle clients: a borrowed one whose connection drops between two
  // statements (e.g. while an append signs) would otherwise emit an unhandled 'error'.
  client.on('error', discard);
  try {
    return await fn(client, discard);
  } catch (error) {
    if (error instanceof Error && isUnavailable(error)) discard(error);
    throw error;
  } finally {
    client.removeListener('error', discard);
    client.release(broken);
  }
}

/** Runs `fn` inside `BEGIN … COMMIT` on one borrowed client; rolls back when `fn` throws. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client, discard) => {
    await client.query('BEGIN');
    let result: T;
    try {
      result = await fn(client);
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The transaction's state is unknown: never hand this connection out again.
        discard(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError)));
      }
      throw error;
    }
    await client.query('COMMIT');
    return result;
  });
}

/** Runs `fn`, turning "the database cannot answer" into `service_unavailable` (SPEC.md §8). */
export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isUnavailable(error)) throw unavailable(error);
    throw error;
  }
}

/** One statement on a pooled connection, {@link guarded}. */
export function queryPool<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<R>> {
  return guarded(() => withClient(pool, (client) => client.query<R>(text, values)));
}
