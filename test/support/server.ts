/**
 * The one helper that starts erx for a test (STYLE.md "copy-pasted test set-up"): a real server on
 * an ephemeral port over a fresh data directory (real SQLite file, real keys), with clients of both
 * roles registered and their tokens fetched through the token endpoint. {@link useTestServer} gives
 * a suite its server; {@link listenServer} starts one without clients (an external token service).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { after, before } from 'node:test';
import { MIN_SECRET_COST } from '../../src/auth/secret-hash.js';
import { loadConfig } from '../../src/config/index.js';
import { openRuntime } from '../../src/server/runtime.js';
import type { Runtime, RuntimeOptions } from '../../src/server/runtime.js';
import { fetchToken, send } from './http.js';
import type { Answer, RequestOptions } from './http.js';
import { createTestDatabase } from './postgres.js';
import type { TestDatabase } from './postgres.js';

export interface Actor {
  clientId: string;
  secret: string;
  sub: string;
  name: string;
  token: string;
}

/** erx listening on an ephemeral port, over a data directory of its own. */
export interface ListeningServer {
  url: string;
  dataDir: string;
  runtime: Runtime;
  /** `http://127.0.0.1:<port>/metrics` (an ephemeral port), undefined with ERX_METRICS_ADDR=off. */
  metricsUrl: string | undefined;
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** Stops erx and removes its data directory (and database). */
  close(): Promise<void>;
}

/** A {@link ListeningServer} with two prescribers and two pharmacists registered, tokens issued. */
export interface TestServer extends ListeningServer {
  doctor: Actor;
  doctor2: Actor;
  pharmacist: Actor;
  pharmacist2: Actor;
  /** Issues a token for a registered client through `/REST/v1/OAuth/token`. */
  tokenFor(clientId: string, secret: string): Promise<string>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Keep the data directory (for restarts); the caller removes it. */
  dataDir?: string;
  /**
   * Make the prescription address the server's own (`<url>/rx/`), so that links open the
   * patient view of this server (browser tests). Default: `http://erx.test/rx/`.
   */
  ownPrescriptionUrl?: boolean;
  /** What the runtime takes besides the configuration (e.g. shortened HTTP timeouts). */
  runtime?: RuntimeOptions;
}

const SECRET = 'test-secret-0123456789';

/**
 * The scrypt cost of the secrets a test server hashes: the cheapest erx writes. Every start
 * registers four clients and fetches their tokens, eight hashes that at the service's own cost
 * took seconds of CPU per start. Suites about hashing under load ask for the service's cost.
 */
const TEST_SECRET_COST = MIN_SECRET_COST;

/** A port that was free a moment ago (the configuration needs it before the server listens). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** Opens the runtime and listens; with `ownPrescriptionUrl`, on a port chosen beforehand. */
async function listen(
  dataDir: string,
  options: StartOptions,
): Promise<{ runtime: Runtime; url: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = options.ownPrescriptionUrl ? await freePort() : 0;
    const config = loadConfig({
      ERX_DATA_DIR: dataDir,
      PORT: String(port),
      ERX_PRESCRIPTION_URL: options.ownPrescriptionUrl
        ? `http://127.0.0.1:${port}/rx/`
        : 'http://erx.test/rx/',
      ERX_RATE_LIMIT_SUBJECT: '0',
      ERX_RATE_LIMIT_ANON: '0',
      // Servers of concurrent tests would all ask for 9464.
      ERX_METRICS_ADDR: '127.0.0.1:0',
      // Every test client connects from 127.0.0.1; the suites that test the bound set it.
      ERX_MAX_CONNECTIONS_PER_ADDRESS: '0',
      // A receipt comes within milliseconds; on a loaded test machine it may take longer than
      // the default second, and the answers the suites compare would then lack it.
      ERX_LOG_RECEIPT_WAIT: '20s',
      ...options.env,
    });
    const runtime = await openRuntime(config, { secretCost: TEST_SECRET_COST, ...options.runtime });
    try {
      await runtime.metricsListener?.listen();
      await runtime.app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await runtime.close();
      // Another process took the port between the probe and the listen: try another one.
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      throw error;
    }
    const address = runtime.app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return { runtime, url };
  }
}

/**
 * The engine every server of this test run uses: `ERX_TEST_ENGINE=postgres` (set by the test
 * runner's second pass over the end-to-end suite) gives each server a fresh PostgreSQL database,
 * unless the test names a database itself.
 */
async function engineDatabase(options: StartOptions): Promise<TestDatabase | undefined> {
  if (process.env.ERX_TEST_ENGINE !== 'postgres' || options.env?.ERX_DATABASE_URL) return undefined;
  return createTestDatabase();
}

/** Starts erx without registering clients; `close()` stops it and removes what it made. */
export async function listenServer(options: StartOptions = {}): Promise<ListeningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'erx-test-'));
  const database = await engineDatabase(options);
  const { runtime, url } = await listen(
    dataDir,
    database ? { ...options, env: { ...options.env, ERX_DATABASE_URL: database.url } } : options,
  );
  return {
    url,
    dataDir,
    runtime,
    metricsUrl: runtime.metricsListener?.url,
    request: (method, path, o) => send(url, method, path, o),
    close: async () => {
      await runtime.close();
      await database?.drop();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts erx for a test; `close()` stops it and removes its data directory (and database). */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const server = await listenServer(options);
  const tokens = server.runtime.tokens!;

  async function actor(
    clientId: string,
    role: 'prescriber' | 'pharmacist',
    name: string,
  ): Promise<Actor> {
    const sub = `HIN|${clientId}`;
    const existing = (await tokens.listClients()).some((c) => c.clientId === clientId);
    if (!existing) {
      await tokens.addClient({
        clientId,
        secret: SECRET,
        role,
        name,
        sub,
        description: `${role} for tests`,
      });
    }
    return {
      clientId,
      secret: SECRET,
      sub,
      name,
      token: await fetchToken(server.url, clientId, SECRET),
    };
  }

  // A server whose clients could not be set up is closed here: no `after` hook would close it,
  // and its open handles would keep the test process from ever exiting.
  const [doctor, doctor2, pharmacist, pharmacist2] = await Promise.all([
    actor('doctor1', 'prescriber', 'Dr. med. Lukas Beispiel'),
    actor('doctor2', 'prescriber', 'Dr. med. Eva Zweit'),
    actor('pharma1', 'pharmacist', 'Apotheke am Platz'),
    actor('pharma2', 'pharmacist', 'Bahnhof Apotheke'),
  ]).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });

  return {
    ...server,
    doctor,
    doctor2,
    pharmacist,
    pharmacist2,
    tokenFor: (clientId, secret) => fetchToken(server.url, clientId, secret),
  };
}

/**
 * The server of the calling suite: started before its first test, closed after its last. The
 * answer stands for that server; reading it outside the suite's tests and hooks throws.
 */
export function useTestServer(options: StartOptions = {}): TestServer {
  let current: TestServer | undefined;
  before(async () => {
    current = await startTestServer(options);
  });
  after(async () => {
    await current?.close();
  });
  const started = (): TestServer => {
    if (current === undefined) throw new Error('the suite server is used outside the suite');
    return current;
  };
  // Every member of the server (its fields and its closures) read at the time of use.
  return new Proxy({} as TestServer, { get: (_target, key) => Reflect.get(started(), key) });
}
