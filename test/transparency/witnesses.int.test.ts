/**
 * The log's witnesses end to end (c2sp.org/tlog-witness): erx configured with three test witnesses
 * sends each new checkpoint with the consistency proof from the size each last cosigned, at most
 * once a second per witness, keeps the verified cosignature lines, and serves them on its
 * checkpoint note; a witness that was down catches up; after a restart erx learns each witness's
 * size from its 409. The test witness itself refuses rollbacks and forks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLogIdentity } from '../../src/server/log-key.js';
import {
  ed25519CosignatureVerifier,
  ed25519NoteVerifier,
  formatCheckpoint,
  openCheckpoint,
  signNote,
} from '../../src/tlog/index.js';
import { calls, createPrescription, withItems } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import {
  cosignedHead,
  startWitnessedServer,
  TEST_LOG_ORIGIN,
} from '../support/witnessed-server.js';
import type { WitnessedServer } from '../support/witnessed-server.js';

describe('witnesses cosign the log', () => {
  let log: WitnessedServer;
  before(async () => {
    log = await startWitnessedServer(3);
  });
  after(async () => {
    await log?.close();
  });

  /** Makes `n` events: a prescription and `n - 1` partial dispensations, `gapMs` apart. */
  async function events(n: number, gapMs = 0): Promise<void> {
    const rx = await createPrescription(log.server, roomyPrescription());
    for (let i = 1; i < n; i++) {
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      const answer = await calls(log.server).dispense(
        rx.id,
        withItems([{ id: MED_A, amount: 1 }]),
      )();
      assert.equal(answer.status, 200, answer.text);
    }
  }

  test('every witness cosigns the head, and the checkpoint note carries the lines', async () => {
    await events(3);
    const { size, lines } = await cosignedHead(
      log.server,
      3,
      20_000,
      await log.server.runtime.store.feed.head(),
    );
    assert.equal(lines.length, 3);
    for (const w of log.witnesses) assert.equal(w.state(TEST_LOG_ORIGIN)?.size, size);
    const note = await log.server.runtime.transparency.checkpointNote();
    assert.ok(note !== undefined);
    const opened = openCheckpoint(note, {
      origin: TEST_LOG_ORIGIN,
      log: [ed25519NoteVerifier(log.logVkey)],
      witnesses: log.witnesses.map((w) => ed25519CosignatureVerifier(w.vkey)),
      minCosignatures: 3,
    });
    assert.equal(opened.checkpoint.size, size);
    assert.deepEqual([...opened.cosignedBy].sort(), log.witnesses.map((w) => w.name).sort());
  });

  test('later checkpoints come with consistency proofs, at most once a second each', async () => {
    const before = log.witnesses.map((w) => w.calls.length);
    const started = Date.now();
    // A new checkpoint every 300 ms for over two seconds: more than one witness call each.
    await events(8, 300);
    const { size } = await cosignedHead(
      log.server,
      3,
      20_000,
      await log.server.runtime.store.feed.head(),
    );
    const seconds = (Date.now() - started) / 1000;
    log.witnesses.forEach((w, i) => {
      const fresh = w.calls.slice(before[i]);
      assert.ok(fresh.length > 1, `${w.name} was sent ${fresh.length} checkpoints`);
      // Every checkpoint was consistent with the one before: never a 4xx.
      assert.deepEqual(
        fresh.map((c) => c.status),
        fresh.map(() => 200),
      );
      assert.ok(fresh.every((c) => c.old > 0 && c.old <= (c.size ?? 0)));
      assert.equal(fresh.at(-1)?.size, size);
      for (let k = 1; k < fresh.length; k++) {
        // A timer's slack aside, one exchange a second.
        assert.ok(fresh[k]!.at - fresh[k - 1]!.at >= 900, `${w.name} asked twice within a second`);
      }
      assert.ok(fresh.length <= Math.ceil(seconds) + 1, `${fresh.length} calls in ${seconds} s`);
    });
  });

  test('a witness that was down catches up; the others are not held back', async () => {
    const [w1, , w3] = log.witnesses;
    w3!.failNext(2);
    await events(2);
    // The growth of the last event is written a moment after its answer.
    const store = log.server.runtime.store;
    const until = Date.now() + 20_000;
    while ((await store.log.head())?.size !== (await store.feed.head()) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const head = (await store.log.head())!;
    while (w1!.state(TEST_LOG_ORIGIN)?.size !== head.size && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(w1!.state(TEST_LOG_ORIGIN)?.size, head.size);
    const { lines } = await cosignedHead(
      log.server,
      3,
      20_000,
      await log.server.runtime.store.feed.head(),
    );
    assert.equal(lines.length, 3);
    assert.ok(w3!.calls.some((c) => c.status === 503));
    assert.equal(w3!.state(TEST_LOG_ORIGIN)?.size, head.size);
  });

  test('after a restart erx follows the witnesses’ 409 to the size each cosigned', async () => {
    const before = log.witnesses.map((w) => w.calls.length);
    await log.restart();
    await events(1);
    const { size } = await cosignedHead(
      log.server,
      3,
      20_000,
      await log.server.runtime.store.feed.head(),
    );
    log.witnesses.forEach((w, i) => {
      const fresh = w.calls.slice(before[i]);
      const conflict = fresh.findIndex((c) => c.status === 409);
      assert.ok(conflict >= 0, `${w.name}: no 409`);
      assert.equal(fresh[conflict]!.old, 0);
      assert.equal(fresh.at(-1)?.status, 200);
      assert.equal(w.state(TEST_LOG_ORIGIN)?.size, size);
    });
  });

  test('the test witness refuses a rollback, a fork and a stale old size', async () => {
    const witness = log.witnesses[0]!;
    const state = witness.state(TEST_LOG_ORIGIN)!;
    const { signer } = openLogIdentity(log.dataDir, TEST_LOG_ORIGIN);
    const sign = (size: number, root: Buffer) =>
      signNote(formatCheckpoint({ origin: TEST_LOG_ORIGIN, size, root }), [signer]);
    const post = async (body: string) =>
      (await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body })).status;
    const forked = Buffer.from(state.root);
    forked[0] = forked[0]! ^ 1;
    // A fork: the size it cosigned with another root.
    assert.equal(await post(`old ${state.size}\n\n${await sign(state.size, forked)}`), 422);
    // A rollback: an old size above the checkpoint's.
    assert.equal(await post(`old ${state.size}\n\n${await sign(state.size - 1, forked)}`), 400);
    // A smaller tree from the size it cosigned is no extension of it.
    assert.equal(await post(`old 1\n\n${await sign(1, forked)}`), 409);
    // Signed by another key than the log's.
    const other = openLogIdentity(`${log.dataDir}/other`, TEST_LOG_ORIGIN).signer;
    const foreign = await signNote(
      formatCheckpoint({ origin: TEST_LOG_ORIGIN, size: state.size, root: state.root }),
      [other],
    );
    assert.equal(await post(`old ${state.size}\n\n${foreign}`), 403);
    assert.equal(witness.state(TEST_LOG_ORIGIN)?.size, state.size);
    assert.deepEqual(witness.state(TEST_LOG_ORIGIN)?.root, state.root);
  });
});
