/**
 * Every single change an attacker with write access to the store could make to a 10-event
 * chain must be detected at the right event. The suite prints its count.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { head } from '../../test/support/ledger/edits.js';
import { mutationSubject, mutationsOf } from '../../test/support/ledger/chain-mutations.js';
import { verifyChain } from './verify-chain.js';

test('every mutation of a 10-event chain is detected at the right event', async () => {
  const subject = await mutationSubject();
  const { chain, prescriptionId, verifier } = subject;
  const baseline = await verifyChain(
    { prescriptionId, events: chain, headHash: head(chain) },
    verifier,
  );
  assert.equal(baseline.ok, true);
  const mutations = await mutationsOf(subject);
  const missed: string[] = [];
  for (const mutation of mutations) {
    const result = await verifyChain(
      { prescriptionId, events: mutation.events, headHash: mutation.headHash },
      verifier,
    );
    const right =
      !result.ok &&
      result.firstBadIndex === mutation.index &&
      result.failedCheck !== undefined &&
      mutation.checks.includes(result.failedCheck);
    if (!right) {
      missed.push(
        `${mutation.name}: got ${result.ok ? 'ok' : `${result.firstBadIndex} ${result.failedCheck} ${result.reason}`}`,
      );
    }
  }
  console.log(
    `ledger mutations: ${mutations.length} run, ${mutations.length - missed.length} detected`,
  );
  assert.ok(mutations.length > 500, `only ${mutations.length} mutations`);
  assert.deepEqual(missed, []);
});
