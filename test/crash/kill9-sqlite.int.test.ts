/**
 * Crash safety on SQLite (WAL, `synchronous=FULL`): 20 rounds of `kill -9` during a storm of
 * forced dispenses on one data directory, each kill timed after at least 40 acknowledged
 * dispenses; after every restart each acknowledged event is present and every chain verifies, the
 * tokens issued before and after the restarts work, and `erx audit verify` passes at the end.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crashEnv, registerClients } from './harness.js';
import { describeReport, runKillRounds } from './kill-rounds.js';

const dataDir = mkdtempSync(join(tmpdir(), 'erx-crash-sqlite-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('sqlite: 20 rounds of kill -9 during a dispense storm lose no acknowledged event', async () => {
  await registerClients(dataDir);
  const report = await runKillRounds(crashEnv(dataDir), {
    rounds: 20,
    prescriptions: 3,
    workers: 8,
    stormMs: [300, 1000],
    acknowledgedBeforeKill: 40,
  });
  console.log(describeReport('sqlite', report));
  assert.equal(report.rounds, 20);
  assert.equal(report.lost, 0);
  assert.equal(report.present, report.acknowledged);
});
