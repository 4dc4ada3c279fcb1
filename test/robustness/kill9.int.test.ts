/**
 * `kill -9` of the server during 200 dispenses, then a restart: every dispense that got
 * a 200 is in the store and `erx audit verify` passes (SQLite `synchronous=FULL`).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenService } from '../../src/auth/index.js';
import { openStore } from '../../src/server/open-store.js';
import { runCli, startChildServer } from '../support/child-server.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import { fetchToken } from '../support/http.js';

const dataDir = mkdtempSync(join(tmpdir(), 'erx-kill9-'));
const env = { ERX_DATA_DIR: dataDir, ERX_RATE_LIMIT_SUBJECT: '0', ERX_RATE_LIMIT_ANON: '0' };
const SECRET = 'kill9-secret-0123456789';
after(() => rmSync(dataDir, { recursive: true, force: true }));

function token(url: string, clientId: string): Promise<string> {
  return fetchToken(url, clientId, SECRET);
}

test('every acknowledged dispense survives kill -9; the audit passes', async () => {
  const store = await openStore({ dataDir, databaseUrl: undefined });
  const tokens = new TokenService(store);
  await tokens.addClient({
    clientId: 'doc',
    secret: SECRET,
    role: 'prescriber',
    name: 'Dr. K',
    sub: 'HIN|doc',
  });
  await tokens.addClient({
    clientId: 'ph',
    secret: SECRET,
    role: 'pharmacist',
    name: 'Apo K',
    sub: 'HIN|ph',
  });
  await store.close();

  const first = await startChildServer(env);
  const doc = samplePrescription();
  const created = await fetch(`${first.url}/ePrescription/create?output-format=data`, {
    method: 'POST',
    headers: {
      authorization: `Bearer acs:${await token(first.url, 'doc')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(doc),
  });
  assert.equal(created.status, 200);
  const { SignedPrescriptionData: link, prescription_id: id } = (await created.json()) as {
    SignedPrescriptionData: string;
    prescription_id: string;
  };
  const pharmacist = await token(first.url, 'ph');

  const acknowledged: string[] = [];
  const killAfter = 40 + Math.floor(Math.random() * 100);
  let killed: Promise<void> | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < 200) {
      next += 1;
      try {
        const response = await fetch(`${first.url}/ePrescription/dispense/${id}?force=true`, {
          method: 'POST',
          headers: {
            authorization: `Bearer acs:${pharmacist}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify([{ id: MED_A, amount: 1 }]),
        });
        if (response.status === 200)
          acknowledged.push(((await response.json()) as { id: string }).id);
      } catch {
        // the server is gone: this call was never acknowledged
      }
      if (acknowledged.length >= killAfter && !killed) killed = first.kill();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await (killed ?? first.kill());
  console.log(`kill -9 after ${acknowledged.length} acknowledged dispenses (target ${killAfter})`);
  assert.ok(acknowledged.length >= killAfter);

  const second = await startChildServer(env);
  try {
    const verified = await fetch(`${second.url}/ePrescription/verify`, {
      method: 'POST',
      headers: {
        authorization: `Bearer acs:${await token(second.url, 'ph')}`,
        'content-type': 'text/plain',
      },
      body: link,
    });
    assert.equal(verified.status, 200);
    const result = (await verified.json()) as {
      events: { id: string }[];
      tampering_detection_result: { logs_check_passed: boolean };
    };
    const stored = new Set(result.events.map((e) => e.id));
    const lost = acknowledged.filter((eventId) => !stored.has(eventId));
    assert.deepEqual(lost, [], 'acknowledged dispenses missing after restart');
    assert.equal(result.tampering_detection_result.logs_check_passed, true);
  } finally {
    await second.stop();
  }

  const audit = runCli(['audit', 'verify'], env);
  assert.equal(audit.status, 0, audit.stdout + audit.stderr);
  assert.match(audit.stdout, /1 prescriptions, \d+ events, 0 failed/);
});
