/**
 * The one helper that starts erx for a test (STYLE.md "copy-pasted test set-up"): a real server on
 * an ephemeral port over a fresh data directory (real SQLite file, real keys), with clients of both
 * roles registered and their tokens fetched through the token endpoint.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { loadConfig } from '../../src/config/index.js';
import { createTestDatabase } from './postgres.js';
import type { TestDatabase } from './postgres.js';
import { openRuntime } from '../../src/server/runtime.js';
import type { Runtime } from '../../src/server/runtime.js';

export interface Actor {
  clientId: string;
  secret: string;
  sub: string;
  name: string;
  token: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  bytes: Buffer;
}

export interface RequestOptions {
  token?: string;
  /** Raw Authorization header (overrides token). */
  authorization?: string;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url: string;
  dataDir: string;
  runtime: Runtime;
  doctor: Actor;
  doctor2: Actor;
  pharmacist: Actor;
  pharmacist2: Actor;
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** Issues a token for a registered client through `/REST/v1/OAuth/token`. */
  tokenFor(clientId: string, secret: string): Promise<string>;
  close(): Promise<void>;
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
}

const SECRET = 'test-secret-0123456789';

/** The sample prescription with a fresh `Id` (and any overrides). */
export function samplePrescription(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const doc = JSON.parse(readFileSync('examples/prescription.json', 'utf8')) as Record<
    string,
    unknown
  >;
  return { ...doc, Id: randomUUID(), ...overrides };
}

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
      ...options.env,
    });
    const runtime = await openRuntime(config);
    try {
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

/** Starts erx for a test; `close()` stops it and removes its data directory (and database). */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'erx-test-'));
  const database = await engineDatabase(options);
  const { runtime, url } = await listen(
    dataDir,
    database ? { ...options, env: { ...options.env, ERX_DATABASE_URL: database.url } } : options,
  );

  async function request(method: string, path: string, o: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.authorization !== undefined) headers.authorization = o.authorization;
    else if (o.token !== undefined) headers.authorization = `Bearer acs:${o.token}`;
    if (o.contentType !== undefined) headers['content-type'] = o.contentType;
    const response = await fetch(url + path, { method, headers, body: o.body });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json, bytes };
  }

  async function tokenFor(clientId: string, secret: string): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    });
    // A server started with a load bound (ERX_MAX_LAG_MS) may refuse while it starts up on busy
    // cores: the call is repeated after its Retry-After, as a client does, for up to 10 s.
    const until = performance.now() + 10_000;
    let answer: Answer;
    for (;;) {
      answer = await request('POST', '/REST/v1/OAuth/token', {
        body: form.toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      if (answer.status !== 503 || performance.now() > until) break;
      const retryAfter = Number(answer.headers.get('retry-after') ?? 1);
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1_000));
    }
    if (answer.status !== 200)
      throw new Error(`token for ${clientId}: ${answer.status} ${answer.text}`);
    return answer.json.access_token as string;
  }

  async function actor(
    clientId: string,
    role: 'prescriber' | 'pharmacist',
    name: string,
  ): Promise<Actor> {
    const sub = `HIN|${clientId}`;
    const existing = (await runtime.tokens!.listClients()).some((c) => c.clientId === clientId);
    if (!existing) {
      await runtime.tokens!.addClient({
        clientId,
        secret: SECRET,
        role,
        name,
        sub,
        description: `${role} for tests`,
      });
    }
    return { clientId, secret: SECRET, sub, name, token: await tokenFor(clientId, SECRET) };
  }

  const [doctor, doctor2, pharmacist, pharmacist2] = await Promise.all([
    actor('doctor1', 'prescriber', 'Dr. med. Lukas Beispiel'),
    actor('doctor2', 'prescriber', 'Dr. med. Eva Zweit'),
    actor('pharma1', 'pharmacist', 'Apotheke am Platz'),
    actor('pharma2', 'pharmacist', 'Bahnhof Apotheke'),
  ]);

  return {
    url,
    dataDir,
    runtime,
    doctor,
    doctor2,
    pharmacist,
    pharmacist2,
    request,
    tokenFor,
    close: async () => {
      await runtime.close();
      await database?.drop();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
