/**
 * Wrong client secrets must not starve verification (OWASP API4): 40 connections from one address
 * (127.0.0.2) hammer the token endpoint with wrong secrets, and go on until, from another address
 * (127.0.0.1), a client has its token and a pharmacy has verified a chain this erx has never
 * verified (its ES384 signatures run on libuv's threads): both are answered while the flood runs,
 * not after it (a starved request would keep the flood going for good). Counted, not timed: secrets
 * are hashed on a thread of their own, and the flooding address gets no more hashes than its
 * failure budget; past it, it is refused (429 with `Retry-After`) without hashing, at the token
 * endpoint and at the token check alike. How long the two calls took is printed, not asserted.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { FAILURES_PER_ADDRESS } from '../../src/auth/failure-budget.js';
import { sqlitePath } from '../../src/server/open-store.js';
import { openRuntime } from '../../src/server/runtime.js';
import { samplePrescription } from '../support/fixtures.js';
import { withConnection } from '../support/postgres.js';
import { SECRET_COST } from '../../src/auth/secret-hash.js';
import { useTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const CONNECTIONS = 40;
const FLOOD_ADDRESS = '127.0.0.2';
const FORM = 'application/x-www-form-urlencoded';

/** A prescription created by another erx over the same data: this one has never verified it. */
async function unverifiedLink(server: TestServer): Promise<string> {
  const creator = await openRuntime(server.runtime.config);
  let created: { prescription_id: string; SignedPrescriptionData: string };
  try {
    const answer = await creator.app.inject({
      method: 'POST',
      url: '/ePrescription/create?output-format=data',
      headers: {
        authorization: `Bearer acs:${server.doctor.token}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify(samplePrescription()),
    });
    assert.equal(answer.statusCode, 200, answer.body);
    created = answer.json();
  } finally {
    await creator.close();
  }
  // Without the seal the creator wrote, the server must check every signature of the chain.
  const forget = 'DELETE FROM verified_heads WHERE prescription_id = ';
  const url = server.runtime.config.databaseUrl;
  if (url !== undefined) {
    await withConnection(url, (c) => c.query(`${forget}$1`, [created.prescription_id]));
  } else {
    const db = new Database(sqlitePath(server.dataDir));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(`${forget}?`).run(created.prescription_id);
    } finally {
      db.close();
    }
  }
  return created.SignedPrescriptionData;
}

interface Flood {
  /** Answers so far by status. */
  readonly statuses: Record<number, number>;
  /** `Retry-After` values of the 429 answers. */
  readonly retryAfter: Set<string>;
  answered(): number;
  /** Tells every connection to stop after its answer in flight. */
  stop(): void;
  /** Resolves when every connection has stopped. */
  readonly done: Promise<void>;
}

/**
 * {@link CONNECTIONS} keep-alive connections from {@link FLOOD_ADDRESS}, each posting `path` until
 * `stop()`, or until `calls` requests have been sent in all.
 */
function flood(server: TestServer, path: string, form: () => string, calls = Infinity): Flood {
  const { port } = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const statuses: Record<number, number> = {};
  const retryAfter = new Set<string>();
  let sent = 0;
  let stopped = false;
  const post = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const body = form();
      const call = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          agent,
          localAddress: FLOOD_ADDRESS,
          headers: { 'content-type': FORM, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          statuses[response.statusCode!] = (statuses[response.statusCode!] ?? 0) + 1;
          if (response.statusCode === 429) retryAfter.add(String(response.headers['retry-after']));
          response.resume();
          response.on('end', resolve);
          response.on('error', reject);
        },
      );
      call.on('error', reject);
      call.end(body);
    });
  const connection = async (): Promise<void> => {
    while (!stopped && sent < calls) {
      sent++;
      await post();
    }
  };
  const done = Promise.all(Array.from({ length: CONNECTIONS }, connection)).then(
    () => agent.destroy(),
    (error: unknown) => {
      agent.destroy();
      throw error;
    },
  );
  const answered = () => Object.values(statuses).reduce((sum, n) => sum + n, 0);
  const stop = (): void => {
    stopped = true;
  };
  return { statuses, retryAfter, answered, stop, done };
}

/** Resolves once `condition` holds, looking every 10 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** `call`'s result and how long it took, in ms. */
async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await call();
  return { value, ms: performance.now() - start };
}

describe('a flood of wrong client secrets', () => {
  // Hashing at the service's own cost: the flood must load the hashing thread as it would.
  const server = useTestServer({ runtime: { secretCost: SECRET_COST } });
  let link: string;
  before(async () => {
    link = await unverifiedLink(server);
  });

  it('answers a token request and the verify of a never-verified chain while the flood runs', async () => {
    // Unknown client ids, a new one each time: only the budget of the address can stop them.
    const wrong = () =>
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: `guess-${randomBytes(6).toString('hex')}`,
        client_secret: randomBytes(16).toString('base64url'),
      }).toString();
    const attack = flood(server, '/REST/v1/OAuth/token', wrong);
    // The flood is under way: every connection has had an answer.
    await until(() => attack.answered() >= CONNECTIONS);
    const before = attack.answered();

    const [token, verified] = await Promise.all([
      timed(() =>
        server.request('POST', '/REST/v1/OAuth/token', {
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: server.doctor.clientId,
            client_secret: server.doctor.secret,
          }).toString(),
          contentType: FORM,
        }),
      ),
      timed(() =>
        server.request('POST', '/ePrescription/verify', {
          body: link,
          contentType: 'text/plain',
          token: server.pharmacist.token,
        }),
      ),
    ]);
    // Answered during the flood, which kept answering meanwhile.
    const during = attack.answered() - before;
    attack.stop();
    await attack.done;
    console.log(
      `[security] secret flood: ${attack.answered()} wrong secrets from ${CONNECTIONS} connections ` +
        `(${during} while the two calls ran), statuses ${JSON.stringify(attack.statuses)}; token request ` +
        `${token.ms.toFixed(0)} ms, verify of an unverified chain ${verified.ms.toFixed(0)} ms`,
    );
    assert.equal(token.value.status, 200, token.value.text);
    assert.equal(verified.value.status, 200, verified.value.text);
    assert.equal(verified.value.json.valid, true);
    assert.equal(verified.value.json.tampering_detection_result.logs_check_passed, true);
    assert.ok(during > 0, 'the flood had stopped answering');

    // Hashed on the runtime's own thread, not on libuv's pool.
    assert.equal(server.runtime.scryptPool.started, 1);
    // Only the address's budget was hashed; everything after it was refused at once.
    assert.deepEqual(Object.keys(attack.statuses).sort(), ['401', '429']);
    assert.ok(attack.statuses[401]! <= FAILURES_PER_ADDRESS, JSON.stringify(attack.statuses));
    for (const value of attack.retryAfter) assert.match(value, /^([1-9]|10)$/);
  });

  it('the token check draws on the same budget: the address is still refused there', async () => {
    const wrong = new URLSearchParams({
      token: server.doctor.token,
      client_id: server.pharmacist.clientId,
      client_secret: 'not-the-secret',
    }).toString();
    const check = flood(server, '/REST/v1/OAuth/GetTokenInfo', () => wrong, 4 * CONNECTIONS);
    await check.done;
    assert.deepEqual(Object.keys(check.statuses), ['429'], JSON.stringify(check.statuses));
    // The client whose id was used keeps its own access from its own address.
    const own = await server.request('POST', '/REST/v1/OAuth/GetTokenInfo', {
      body: new URLSearchParams({
        token: server.doctor.token,
        client_id: server.pharmacist.clientId,
        client_secret: server.pharmacist.secret,
      }).toString(),
      contentType: FORM,
    });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.active, true);
  });
});
