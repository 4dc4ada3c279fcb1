/**
 * PostgreSQL for tests, decided in one place: whether the PostgreSQL suites run, and a fresh
 * database of their own for each use. The server is `ERX_TEST_PG_URL` (default
 * `postgres://postgres@127.0.0.1:5432/postgres`, whose database is only used to create and drop
 * test databases). When it cannot be reached the suites skip with a printed reason, except under
 * CI (`CI` set) or with `ERX_REQUIRE_PG=1`, where that is a failure.
 */
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import pg from 'pg';

/** The server (and maintenance database) the PostgreSQL tests use. */
export const TEST_PG_URL =
  process.env.ERX_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when an unreachable PostgreSQL must fail the tests instead of skipping them. */
export function postgresRequired(): boolean {
  const ci = process.env.CI;
  return (ci !== undefined && ci !== '' && ci !== 'false') || process.env.ERX_REQUIRE_PG === '1';
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: TEST_PG_URL,
    connectionTimeoutMillis: 2_000,
    application_name: 'erx-test-admin',
  });
  // A failed connect also emits 'error'; the rejected connect() already reports it.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // A refused dual-stack connect is an AggregateError with an empty message but a code.
  return error.message || String((error as { code?: unknown }).code ?? error.name);
}

let probe: Promise<string | undefined> | undefined;

/**
 * Undefined when PostgreSQL answers; otherwise the reason, printed once. Throws instead when
 * {@link postgresRequired}.
 */
export async function postgresSkipReason(): Promise<string | undefined> {
  probe ??= admin((c) => c.query('SELECT 1')).then(
    () => undefined,
    (error: unknown) => `PostgreSQL unreachable at ${TEST_PG_URL}: ${explain(error)}`,
  );
  const reason = await probe;
  if (reason === undefined) return undefined;
  if (postgresRequired()) {
    throw new Error(`${reason} (required: CI or ERX_REQUIRE_PG=1 is set)`);
  }
  console.log(`postgres tests skipped: ${reason}`);
  return reason;
}

/**
 * Registers `fn`'s tests as the suite `name` when PostgreSQL answers; otherwise one skipped test
 * carrying the reason (or a failure, when PostgreSQL is required).
 */
export async function postgresSuite(name: string, fn: () => void): Promise<void> {
  const skip = await postgresSkipReason();
  if (skip === undefined) describe(name, fn);
  else test(name, { skip }, () => undefined);
}

/** A database created for one test. */
export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  /** Ends every connection still open on it, then drops it. */
  drop(): Promise<void>;
}

/** Creates an empty database `erx_test_<random>` (UTF-8 unless `encoding` says otherwise). */
export async function createTestDatabase(encoding = 'UTF8'): Promise<TestDatabase> {
  const name = `erx_test_${randomBytes(6).toString('hex')}`;
  // The name is hex digits and the encoding one of the callers' constants: safe in the statement.
  // UTF-8 databases keep the server's locale, as an operator's would; other encodings need C.
  const locale = encoding === 'UTF8' ? '' : " LC_COLLATE 'C' LC_CTYPE 'C'";
  await admin((c) =>
    c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING '${encoding}'${locale}`),
  );
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      admin(async (c) => {
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await c.query(`DROP DATABASE IF EXISTS ${name}`);
      }),
  };
}

/** Runs `fn` with a fresh database and drops it afterwards, whatever `fn` did. */
export async function withTestDatabase<T>(
  fn: (db: TestDatabase) => Promise<T>,
  encoding?: string,
): Promise<T> {
  const db = await createTestDatabase(encoding);
  try {
    return await fn(db);
  } finally {
    await db.drop();
  }
}

/**
 * Terminates every connection erx holds on `db` (as `pg_terminate_backend` and a server restart
 * do) and waits until they are gone; answers how many there were.
 */
export async function terminateErxBackends(db: TestDatabase): Promise<number> {
  return admin(async (c) => {
    const sql = "FROM pg_stat_activity WHERE datname = $1 AND application_name = 'erx'";
    const killed = await c.query(`SELECT pg_terminate_backend(pid) ${sql}`, [db.name]);
    for (let i = 0; i < 100; i++) {
      const left = await c.query<{ n: number }>(`SELECT count(*)::int AS n ${sql}`, [db.name]);
      if (left.rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return killed.rowCount ?? 0;
  });
}

/** Runs `fn` on a plain connection to `url` (for the test's own checks and interference). */
export async function withConnection<T>(
  url: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'erx-test-admin' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
