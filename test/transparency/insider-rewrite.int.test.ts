/**
 * The insider: someone holding erx's own keys rewrites a partial dispensation in the database
 * (twice the amount), recomputes its hash and re-signs it and every later event with the real
 * leaf key. Every check of the chain alone passes, as the control below shows; the chain is no
 * longer the one the transparency log's checkpoints signed, so verify reports
 * `logs_check_passed: false` and no change of the prescription is possible. Runs on SQLite, and
 * on PostgreSQL with `ERX_TEST_ENGINE=postgres`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkChain, checkInLog } from '../../src/service/verification/check-chain.js';
import { createPrescription, calls, verify, withItems } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import { rewriteChain } from '../support/ledger/rewrite.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { withRows } from '../tamper/server-rows.js';

describe('a dispensation rewritten and re-signed with the real keys', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  test('verify reports logs_check_passed false, and no change is possible', async () => {
    const { dispense, lock, unlock } = calls(server);
    const rx = await createPrescription(server, roomyPrescription());
    const answers = [
      await dispense(rx.id, withItems([{ id: MED_A, amount: 1 }]))(),
      await lock(rx.id, server.pharmacist)(),
      await unlock(rx.id, server.pharmacist)(),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 200, answer.text);
      assert.match(String(answer.json.receipt), /^c2sp\.org\/tlog-proof@v1\n/);
    }
    const before = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(before.tampering_detection_result.logs_check_passed, true);

    const key = await server.runtime.pki.signer.keyAt(new Date());
    await withRows(server, (rows) =>
      rewriteChain(
        rows,
        rx.id,
        1,
        (body) => {
          const dispenses = body.dispenses as { amount: number }[];
          dispenses[0]!.amount = 2;
        },
        key,
      ).then(() => undefined),
    );

    // Control: the rewritten chain passes every check erx makes of a chain alone.
    const state = (await server.runtime.store.readChain(rx.id))?.state;
    assert.ok(state);
    const alone = (await checkChain(server.runtime.service.deps, state, 'decision')).chain;
    assert.equal(alone.ok, true, JSON.stringify(alone));
    const logged = await checkInLog(server.runtime.service.deps, state, alone);
    assert.equal(logged.ok, false);
    assert.equal(logged.failedCheck, 'log');
    assert.equal(logged.firstBadIndex, 1);

    const answer = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(answer.tampering_detection_result.logs_check_passed, false);
    assert.equal(answer.valid, false);
    const change = await dispense(rx.id, withItems([{ id: MED_A, amount: 1 }]))();
    assert.equal(change.status, 409, change.text);
    assert.equal(change.json.cause?.Code, 'ledger_corrupt');
  });
});
