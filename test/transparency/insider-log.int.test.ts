/**
 * The insider against the log (SQLite, and PostgreSQL with `ERX_TEST_ENGINE=postgres`), each
 * attack of docs/transparency.md's table against a real server:
 * - a chain rewritten and re-signed with erx's own keys and given fresh feed positions, with and
 *   without a ghost row holding the old event at its old position under a prescription that does
 *   not exist;
 * - a chain's logged events given other feed positions alone;
 * - an unsigned row inserted;
 * - a chain truncated in the database, then appended to by the insider.
 * Each is reported by `erx audit verify` and, where the table says it can see it, by an
 * `erx log monitor` that saw the log before (exit non-zero naming the chain's commitment and
 * place, never the prescription id); verify reports it and the next dispense is refused with 409
 * `ledger_corrupt`. Another prescription is never refused, nor named by the audit.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { monitorOnce } from '../../src/cli/log-monitor.js';
import type { MonitorOutput } from '../../src/cli/log-monitor.js';
import { canonicalJson } from '../../src/ledger/canonical-json.js';
import { sha256Hex } from '../../src/ledger/hash.js';
import { signEventHash } from '../../src/ledger/sign-event-hash.js';
import { auditChains } from '../../src/service/operations/audit.js';
import type { AuditReport } from '../../src/service/operations/audit.js';
import type { LogFindingKind } from '../../src/service/operations/audit-log.js';
import { chainName } from '../../src/transparency/leaf-entry.js';
import { calls, createPrescription, verify, withItems } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import { rewriteChain } from '../support/ledger/rewrite.js';
import { grownLog } from '../support/log-events.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import type { RowEditor, StoredEvent } from '../tamper/rows.js';
import { withRows } from '../tamper/server-rows.js';

/** The feed position column (the editor writes any column it is given; it is not a stored event's). */
const FEED_SEQ = 'feed_seq' as 'hash';

/** Gives events `seqs` of `prescriptionId` fresh feed positions, far above any erx gave. */
async function reposition(rows: RowEditor, prescriptionId: string, seqs: number[]): Promise<void> {
  for (const seq of seqs) await rows.setEvent(prescriptionId, seq, FEED_SEQ, 1_000_000 + seq);
}

describe('the insider against the transparency log', () => {
  // A server per attack: a monitor that reads a log from its start sees every attack in it.
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'erx-insider-log-'));
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server?.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** One `erx log monitor` run with the state in `state`: its exit status and what it wrote. */
  async function monitor(state: string): Promise<{ ok: boolean; text: string }> {
    let text = '';
    const out: MonitorOutput = {
      stdout: { write: (t: string) => (text += t) },
      stderr: { write: (t: string) => (text += t) },
    };
    const ok = await monitorOnce(server.url, { state: join(dir, state) }, out);
    return { ok, text };
  }

  /** What `erx audit verify` finds, over the server's store with the log key. */
  async function audit(): Promise<AuditReport> {
    const { deps } = server.runtime.service;
    return auditChains(deps.store, deps.verifier, {
      linkKeys: deps.linkKeys,
      prescriptionValidityMs: deps.prescriptionValidityMs,
      logVerifierKey: server.runtime.transparency.identity.verifierKey,
    });
  }

  /** The kinds of the log findings the audit names `prescriptionId` in, sorted. */
  function logKinds(report: AuditReport, prescriptionId: string): LogFindingKind[] {
    return report.log
      .filter((f) => f.prescriptionId === prescriptionId)
      .map((f) => f.kind)
      .sort();
  }

  /** The monitor's run reports a second leaf for `place` of `prescriptionId`'s chain. */
  function assertForked(run: { ok: boolean; text: string }, prescriptionId: string, place: number) {
    assert.equal(run.ok, false, run.text);
    const name = chainName(prescriptionId).toString('hex');
    assert.match(run.text, new RegExp(`chain ${name} place ${place}: leaf \\d+ follows leaf \\d+`));
    assert.match(run.text, new RegExp(`two leaves for place ${place} of this chain`));
    assert.equal(
      run.text.includes(prescriptionId),
      false,
      'the monitor never names the prescription',
    );
  }

  /** Verify fails the log check, the next dispense is refused; `innocent` is dispensed. */
  async function assertRefused(
    rx: { id: string; link: string },
    innocent: { id: string },
  ): Promise<void> {
    const { dispense } = calls(server);
    const answer = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(answer.valid, false);
    assert.equal(answer.tampering_detection_result.logs_check_passed, false);
    const change = await dispense(rx.id, withItems([{ id: MED_A, amount: 1 }]))();
    assert.equal(change.status, 409, change.text);
    assert.equal(change.json.cause?.Code, 'ledger_corrupt');
    const other = await dispense(innocent.id, withItems([{ id: MED_A, amount: 1 }]))();
    assert.equal(other.status, 200, other.text);
  }

  /** Waits until the feed has numbered event `id`, which the log has not taken in. */
  async function numbered(id: string): Promise<void> {
    const { log } = server.runtime.store;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const head = await log.head();
      const after = await log.feedReadAt(head?.size ?? 0);
      if ((await log.readCandidates(after, 1_000)).some((c) => c.id === id)) return;
      assert.ok(Date.now() < deadline, `event ${id} not numbered`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Grows the log until its newest checkpoint holds a leaf of event hash `hash`. */
  async function logged(hash: string): Promise<void> {
    const { transparency, store } = server.runtime;
    const deadline = Date.now() + 10_000;
    for (;;) {
      await transparency.grow();
      const size = (await transparency.checkpoint())?.size ?? 0;
      if ((await store.log.loggedHashes([hash], size)).has(hash)) return;
      assert.ok(Date.now() < deadline, `event ${hash} not logged`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A prescription with a dispense, a lock and an unlock, all logged. */
  async function history(): Promise<{ id: string; link: string }> {
    const { dispense, lock, unlock } = calls(server);
    const rx = await createPrescription(server, roomyPrescription());
    for (const call of [
      dispense(rx.id, withItems([{ id: MED_A, amount: 1 }])),
      lock(rx.id, server.pharmacist),
      unlock(rx.id, server.pharmacist),
    ]) {
      const answer = await call();
      assert.equal(answer.status, 200, answer.text);
    }
    await grownLog(server);
    return rx;
  }

  /** Rewrites the dispense of `id` (1 package becomes 2) and re-signs the chain with erx's key. */
  async function rewrite(rows: RowEditor, id: string): Promise<void> {
    const key = await server.runtime.pki.signer.keyAt(new Date());
    await rewriteChain(
      rows,
      id,
      1,
      (body) => {
        (body.dispenses as { amount: number }[])[0]!.amount = 2;
      },
      key,
    );
  }

  test('a rewritten, re-signed, re-positioned chain: monitor, audit, verify and decisions see it', async () => {
    const rx = await history();
    const innocent = await history();
    assert.equal((await monitor('rewrite.json')).ok, true);
    await withRows(server, async (rows) => {
      await rewrite(rows, rx.id);
      // Fresh feed positions: the rewritten rows are read again by the log's growth.
      await reposition(rows, rx.id, [1, 2, 3]);
    });
    await grownLog(server);

    assertForked(await monitor('rewrite.json'), rx.id, 1);
    const report = await audit();
    assert.deepEqual(logKinds(report, rx.id), ['other_hash', 'other_hash', 'other_hash']);
    await assertRefused(rx, innocent);
    assert.deepEqual(logKinds(await audit(), innocent.id), []);
  });

  test('the same with a ghost row holding the old event at its old position', async () => {
    const rx = await history();
    const innocent = await history();
    assert.equal((await monitor('ghost.json')).ok, true);
    const ghost = randomUUID();
    await withRows(server, async (rows) => {
      const [, old] = (await rows.events(rx.id)) as (StoredEvent & { feed_seq: number })[];
      await rewrite(rows, rx.id);
      await reposition(rows, rx.id, [1, 2, 3]);
      await rows.insertGhost(
        { ...old!, prescription_id: ghost, id: randomUUID() },
        Number(old!.feed_seq),
      );
    });
    await grownLog(server);

    assertForked(await monitor('ghost.json'), rx.id, 1);
    const report = await audit();
    assert.deepEqual(logKinds(report, rx.id), ['other_hash', 'other_hash', 'other_hash']);
    assert.deepEqual(logKinds(report, ghost), ['ghost']);
    await assertRefused(rx, innocent);
  });

  test('logged events given other feed positions alone: the audit, verify and decisions see it', async () => {
    const rx = await history();
    const innocent = await history();
    assert.equal((await monitor('moved.json')).ok, true);
    await withRows(server, (rows) => reposition(rows, rx.id, [1, 2, 3]));
    await grownLog(server);

    // Nothing new is logged (a logged event is never taken again): the monitor has nothing to see.
    const run = await monitor('moved.json');
    assert.equal(run.ok, true, run.text);
    const report = await audit();
    assert.deepEqual(logKinds(report, rx.id), ['moved', 'moved', 'moved']);
    await assertRefused(rx, innocent);
  });

  test('an unsigned row inserted: never logged; the audit, verify and decisions see it', async () => {
    const rx = await history();
    const innocent = await history();
    const events = await server.runtime.store.readChain(rx.id);
    const last = events!.state.events.at(-1)!;
    const id = randomUUID();
    await withRows(server, async (rows) => {
      const body = {
        ...(JSON.parse(last.body) as Record<string, unknown>),
        id,
        parent_hash: last.hash,
      };
      const text = canonicalJson(body);
      const hash = sha256Hex(text);
      await rows.insertEvent({
        prescription_id: rx.id,
        seq: last.seq + 1,
        id,
        parent_hash: last.hash,
        body: text,
        hash,
        signature: 'forged',
      });
      await rows.setPrescription(rx.id, 'head_hash', hash);
    });
    // Once the row is numbered, a growth reads it as a candidate and refuses it.
    await numbered(id);
    await server.runtime.transparency.grow();

    assert.equal((await server.runtime.store.log.positions([id])).size, 0, 'the row was logged');
    const report = await audit();
    const failure = report.failures.find((f) => f.prescriptionId === rx.id);
    assert.equal(failure?.failedCheck, 'signature');
    assert.equal(failure?.firstBadIndex, last.seq + 1);
    await assertRefused(rx, innocent);
  });

  test('a truncated chain: the audit sees it at once, the monitor once the insider appends to it', async () => {
    const rx = await history();
    const innocent = await history();
    assert.equal((await monitor('truncate.json')).ok, true);
    const [create, dispensed] = (await server.runtime.store.readChain(rx.id))!.state.events;
    await withRows(server, async (rows) => {
      for (const seq of [3, 2, 1]) await rows.deleteEvent(rx.id, seq);
      await rows.setPrescription(rx.id, 'head_hash', create!.hash);
    });
    // Nothing appended since: the log's signed leaves hold events the chain no longer has.
    assert.deepEqual(logKinds(await audit(), rx.id), ['missing', 'missing', 'missing']);
    await assertRefused(rx, innocent);

    // erx refuses to append, so the insider writes another dispense, signed with erx's key, as
    // place 1: in one statement, as a growth may read the row at any moment.
    const body = JSON.parse(dispensed!.body) as { dispenses: { amount: number }[] };
    body.dispenses[0]!.amount = 2;
    const text = canonicalJson(body);
    const hash = sha256Hex(text);
    const key = await server.runtime.pki.signer.keyAt(new Date());
    await withRows(server, async (rows) => {
      await rows.insertEvent({
        prescription_id: rx.id,
        seq: 1,
        id: dispensed!.id,
        parent_hash: create!.hash,
        body: text,
        hash,
        signature: await signEventHash(hash, key),
      });
      await rows.setPrescription(rx.id, 'head_hash', hash);
    });
    await logged(hash);
    assertForked(await monitor('truncate.json'), rx.id, 1);
    assert.deepEqual(logKinds(await audit(), rx.id), ['missing', 'missing', 'other_hash']);
    await assertRefused(rx, innocent);
  });
});
