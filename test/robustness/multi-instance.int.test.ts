/**
 * Three `erx serve` processes over one PostgreSQL database (and one shared data
 * directory for the keys) behind a client that spreads calls over them. The chain of a
 * prescription stays linear under concurrent appends and creates, and a PostgreSQL outage in the
 * middle of a dispense storm loses nothing that was acknowledged.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startChildServer } from '../support/child-server.js';
import type { ChildServer } from '../support/child-server.js';
import { createTestDatabase, postgresSuite, terminateErxBackends } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';

const SECRET = 'multi-secret-0123456789';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

async function call(url: string, path: string, token: string, body?: unknown): Promise<Reply> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { authorization: `Bearer acs:${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

await postgresSuite('three instances over one PostgreSQL', () => {
  let db: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let servers: ChildServer[] = [];
  let doctor = '';
  let pharmacist = '';

  before(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'erx-multi-'));
    env = {
      ERX_DATA_DIR: dataDir,
      ERX_DATABASE_URL: db.url,
      // One public address for every instance and the operator's CLI, as a deployment has: the
      // log's origin, which the audit checks checkpoints under, follows from it.
      ERX_PRESCRIPTION_URL: 'https://erx.example.ch/rx/',
      ERX_RATE_LIMIT_SUBJECT: '0',
      ERX_RATE_LIMIT_ANON: '0',
      // Every client of the test connects from 127.0.0.1, a hundred at once.
      ERX_MAX_CONNECTIONS_PER_ADDRESS: '0',
      // One pharmacy appends hundreds of events to one prescription in seconds, on purpose.
      ERX_CHAIN_MAX_EVENTS: '10000',
      ERX_CHAIN_ACTOR_EVENTS: '10000',
    };
    for (const [id, role] of [
      ['doc', 'prescriber'],
      ['ph', 'pharmacist'],
    ] as const) {
      const added = await runCli(
        [
          'clients',
          'add',
          '--id',
          id,
          '--secret',
          SECRET,
          '--role',
          role,
          '--name',
          `${role} ${id}`,
          '--sub',
          `HIN|${id}`,
        ],
        env,
      );
      assert.equal(added.status, 0, added.stderr);
    }
    // Started one after the other: the first creates the keys in the shared data directory.
    for (let i = 0; i < 3; i++) servers.push(await startChildServer(env));
    const token = async (clientId: string): Promise<string> => {
      const response = await fetch(`${servers[0]!.url}/REST/v1/OAuth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: SECRET,
        }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    };
    doctor = await token('doc');
    pharmacist = await token('ph');
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    servers = [];
    rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  });

  const at = (i: number): string => servers[i % servers.length]!.url;

  async function verify(link: string): Promise<Reply> {
    return call(at(0), '/ePrescription/verify', pharmacist, link);
  }

  test('300 concurrent forced dispenses on one prescription: 301 events, one linear chain', async () => {
    const doc = samplePrescription();
    const created = await call(at(0), '/ePrescription/create?output-format=data', doctor, doc);
    assert.equal(created.status, 200);
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        call(
          at(i),
          `/ePrescription/dispense/${doc.Id}?force=true`,
          pharmacist,
          i % 2 ? [{ id: MED_A, amount: 1 }] : undefined,
        ),
      ),
    );
    assert.deepEqual(
      replies.filter((r) => r.status !== 200).map((r) => r.body),
      [],
    );
    const verified = await verify(created.body.SignedPrescriptionData as string);
    const events = verified.body.events as { parent_hash?: string; hash?: string }[];
    assert.equal(events.length, 301);
    assert.equal(new Set(events.slice(1).map((e) => e.parent_hash)).size, 300);
    assert.deepEqual(verified.body.tampering_detection_result, {
      prescription_url_valid: true,
      prescription_hash_check_passed: true,
      logs_check_passed: true,
    });
  });

  test('100 prescriptions created concurrently through all three: each has its one create event', async () => {
    const docs = Array.from({ length: 100 }, () => samplePrescription());
    const replies = await Promise.all(
      docs.map((d, i) => call(at(i), '/ePrescription/create?output-format=data', doctor, d)),
    );
    assert.deepEqual(
      replies.map((r) => r.status),
      replies.map(() => 200),
    );
    const checks = await Promise.all(
      replies.map((r, i) =>
        call(at(i), '/ePrescription/verify', pharmacist, r.body.SignedPrescriptionData as string),
      ),
    );
    for (const check of checks) {
      assert.equal(check.status, 200);
      assert.equal((check.body.events as unknown[]).length, 1);
      assert.equal(check.body.valid, true);
    }
  });

  test('backends terminated mid-storm: 503s in the error shape, recovery, every 200 stored', async () => {
    const doc = samplePrescription();
    const created = await call(at(0), '/ePrescription/create?output-format=data', doctor, doc);
    assert.equal(created.status, 200);
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const unavailable: Reply[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < 400) {
        const i = next++;
        const reply = await call(
          at(i),
          `/ePrescription/dispense/${doc.Id}?force=true`,
          pharmacist,
          [{ id: MED_A, amount: 1 }],
        );
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status === 200) acknowledged.push(reply.body.id as string);
        if (reply.status === 503) unavailable.push(reply);
      }
    };
    const storm = Promise.all(Array.from({ length: 12 }, worker));
    let over = false;
    void storm.then(
      () => (over = true),
      () => (over = true),
    );
    const answered = (): number => [...statuses.values()].reduce((sum, n) => sum + n, 0);
    // Cut every erx connection three times while the storm runs: once a quarter, a half and
    // three quarters of its calls have been answered (counted, not timed).
    let terminated = 0;
    for (const share of [1, 2, 3]) {
      while (!over && answered() < (share * 400) / 4) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      terminated += await terminateErxBackends(db);
    }
    await storm;
    console.log(
      `storm: ${JSON.stringify(Object.fromEntries(statuses))}, ${terminated} backends terminated`,
    );
    assert.ok(terminated > 0);
    assert.deepEqual(
      [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
      [],
    );
    for (const reply of unavailable) {
      assert.equal(reply.body.error_code, 'service_unavailable');
      assert.equal((reply.body.cause as { StatusCode: number }).StatusCode, 503);
    }
    // Recovered by itself: a call after the storm succeeds on every instance.
    for (let i = 0; i < 3; i++) {
      assert.equal(
        (await call(at(i), `/ePrescription/dispense/${doc.Id}?force=true`, pharmacist)).status,
        200,
      );
    }
    const verified = await verify(created.body.SignedPrescriptionData as string);
    const stored = new Set((verified.body.events as { id: string }[]).map((e) => e.id));
    assert.deepEqual(
      acknowledged.filter((id) => !stored.has(id)),
      [],
    );
    assert.equal(
      (verified.body.tampering_detection_result as { logs_check_passed: boolean })
        .logs_check_passed,
      true,
    );

    const audit = await runCli(['audit', 'verify'], env);
    assert.equal(audit.status, 0, audit.stdout + audit.stderr);
    assert.match(audit.stdout, / 0 failed/);
  });
});
