/**
 * Crash safety on PostgreSQL: 20 rounds of `kill -9` of `erx serve` during a storm of forced
 * dispenses on one database; after every restart each acknowledged event is present and every
 * chain verifies, the tokens issued before and after the restarts work, and `erx audit verify`
 * passes at the end.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, postgresSuite } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { crashEnv, registerClients } from './harness.js';
import { describeReport, runKillRounds } from './kill-rounds.js';

await postgresSuite('crash safety on PostgreSQL', () => {
  let db: TestDatabase;
  let dataDir: string;

  before(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'erx-crash-pg-'));
  });
  after(async () => {
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('postgres: 20 rounds of kill -9 during a dispense storm lose no acknowledged event', async () => {
    await registerClients(dataDir, db.url);
    const report = await runKillRounds(crashEnv(dataDir, db.url), {
      rounds: 20,
      prescriptions: 3,
      workers: 8,
      stormMs: [300, 1000],
    });
    console.log(describeReport('postgres', report));
    assert.equal(report.rounds, 20);
    assert.equal(report.lost, 0);
    assert.equal(report.present, report.acknowledged);
  });
});
