/**
 * Rounds of `kill -9` during a dispense storm against `erx serve` on one data directory (and one
 * database): each round restarts the service, checks that every event acknowledged so far is
 * present and every chain verifies, storms, and kills at a random moment. The same code runs on
 * each engine; the caller prints and asserts the totals.
 */
import assert from 'node:assert/strict';
import { runCli, startChildServer } from '../support/child-server.js';
import type { ChildServer } from '../support/child-server.js';
import {
  DOCTOR,
  PHARMACIST,
  checkAcknowledged,
  createPrescriptions,
  fetchToken,
  since,
  stormUntilKilled,
} from './harness.js';
import type { Acknowledged } from './harness.js';

export interface KillRoundsOptions {
  rounds: number;
  prescriptions: number;
  workers: number;
  /** The kill lands uniformly between these two times after the storm starts (ms). */
  stormMs: readonly [number, number];
  /** Acknowledged dispenses each round needs before its kill is timed (default 1). */
  acknowledgedBeforeKill?: number;
}

export interface KillRoundsReport {
  rounds: number;
  acknowledged: number;
  present: number;
  lost: number;
  unanswered: number;
  /** Cut off between the commit and the answer: recorded, never acknowledged. */
  unacknowledgedRecorded: number;
  events: number;
  startsMs: number[];
  stormsMs: number[];
  checksMs: number[];
  auditMs: number;
}

/** Starts `erx serve`; a service that does not come back after a kill fails the round. */
async function restart(env: Record<string, string>, round: number): Promise<ChildServer> {
  try {
    return await startChildServer(env);
  } catch (error) {
    throw new Error(`round ${round}: erx serve did not restart: ${String(error)}`, {
      cause: error,
    });
  }
}

/** Runs the rounds over the store `env` names (clients must be registered already). */
export async function runKillRounds(
  env: Record<string, string>,
  options: KillRoundsOptions,
): Promise<KillRoundsReport> {
  const report: KillRoundsReport = {
    rounds: 0,
    acknowledged: 0,
    present: 0,
    lost: 0,
    unanswered: 0,
    unacknowledgedRecorded: 0,
    events: 0,
    startsMs: [],
    stormsMs: [],
    checksMs: [],
    auditMs: 0,
  };
  let started = performance.now();
  let server = await restart(env, 0);
  report.startsMs.push(since(started));
  const acked: Acknowledged = new Map();
  try {
    // Tokens live in the store: the same ones must keep working across every restart.
    const doctor = await fetchToken(server.url, DOCTOR.clientId);
    const pharmacist = await fetchToken(server.url, PHARMACIST.clientId);
    const links = await createPrescriptions(server.url, doctor, options.prescriptions);
    const ids = [...links.keys()];
    for (let round = 1; round <= options.rounds; round++) {
      const [low, high] = options.stormMs;
      const killAtMs = low + Math.random() * (high - low);
      const stormStart = performance.now();
      const current = server;
      const storm = await stormUntilKilled({
        url: current.url,
        token: pharmacist,
        ids,
        acked,
        workers: options.workers,
        killAtMs,
        acknowledgedBeforeKill: options.acknowledgedBeforeKill,
        kill: () => current.kill(),
      });
      report.stormsMs.push(since(stormStart));
      assert.deepEqual(storm.refused, [], `round ${round}: forced dispenses refused`);
      assert.ok(
        storm.acknowledged >= (options.acknowledgedBeforeKill ?? 1),
        `round ${round}: ${storm.acknowledged} acknowledged before the kill`,
      );
      report.unanswered += storm.unanswered;

      started = performance.now();
      server = await restart(env, round);
      report.startsMs.push(since(started));
      const checkStart = performance.now();
      const check = await checkAcknowledged(server.url, pharmacist, links, acked);
      report.checksMs.push(since(checkStart));
      assert.deepEqual(check.lost, [], `round ${round}: acknowledged events lost`);
      assert.deepEqual(check.broken, [], `round ${round}: chains that do not verify`);
      report.rounds = round;
      report.acknowledged = check.acknowledged;
      report.present = check.present;
      report.lost = check.lost.length;
      report.unacknowledgedRecorded = check.unacknowledgedRecorded;
      report.events = check.present + check.unacknowledgedRecorded + links.size;
    }
    // A token issued by the restarted service reads every chain as well.
    const fresh = await fetchToken(server.url, PHARMACIST.clientId);
    const again = await checkAcknowledged(server.url, fresh, links, acked);
    assert.deepEqual(again.lost, [], 'acknowledged events lost, read with a fresh token');
    assert.deepEqual(again.broken, [], 'chains that do not verify, read with a fresh token');
  } finally {
    await server.stop();
  }
  const auditStart = performance.now();
  const audit = await runCli(['audit', 'verify'], env);
  report.auditMs = since(auditStart);
  assert.equal(audit.status, 0, audit.stdout + audit.stderr);
  assert.match(
    audit.stdout,
    new RegExp(`${options.prescriptions} prescriptions, \\d+ events, 0 failed`),
  );
  return report;
}

/** One line of totals for the test output. */
export function describeReport(engine: string, r: KillRoundsReport): string {
  const mean = (xs: number[]): string =>
    (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length) / 1000).toFixed(2);
  return (
    `crash ${engine}: ${r.rounds} rounds of kill -9, ${r.acknowledged} acknowledged, ` +
    `${r.present} present, ${r.lost} lost; ${r.unanswered} calls cut off, ` +
    `${r.unacknowledgedRecorded} of them recorded; ${r.events} events in the chains; ` +
    `mean storm ${mean(r.stormsMs)} s, start ${mean(r.startsMs)} s, check ${mean(r.checksMs)} s, ` +
    `audit ${(r.auditMs / 1000).toFixed(2)} s`
  );
}
