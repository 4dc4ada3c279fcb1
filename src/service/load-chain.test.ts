/** Loading a chain for a decision: a pure function of the rows read. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { appendEvent, sha256Hex } from '../ledger/index.js';
import { memoryPki } from '../../test/support/ledger/chain.js';
import type { ChainState } from '../store/types.js';
import { loadChain } from './load-chain.js';

async function chainState(): Promise<ChainState> {
  const pki = await memoryPki();
  const reference = randomUUID();
  const actor = { actor: 'HIN|dr', actor_name: 'Dr. A' };
  const create = await appendEvent(
    undefined,
    { type: 'create', reference, ...actor, prescription_hash: sha256Hex('CHMED16A1x') },
    pki.signer,
  );
  const lock = await appendEvent(create, { type: 'lock', reference, ...actor }, pki.signer);
  return {
    prescription: {
      id: reference,
      issuer: 'Dr. A (HIN|dr)',
      issuerActor: 'HIN|dr',
      issuedAt: 1_700_000_000,
      medicaments: [{ Id: '7680543201015', IdType: 2 }],
      headHash: lock.hash,
    },
    events: [create, lock].map((e) => ({ ...e, prescriptionId: reference })),
  };
}

test('a chain loads into its bodies and the facts folded from them', async () => {
  const state = await chainState();
  const first = loadChain(state);
  assert.equal(first.facts.lock?.actor, 'HIN|dr');
  assert.deepEqual(
    first.bodies.map((b) => b.type),
    ['create', 'lock'],
  );
  assert.deepEqual(loadChain(state), first, 'the same rows load the same chain');
});

test('a body that does not parse refuses the decision every time (conflict)', async () => {
  const state = await chainState();
  const broken = {
    ...state,
    events: [state.events[0]!, { ...state.events[1]!, body: '{"not":"an event"}' }],
  };
  for (let round = 0; round < 2; round++) {
    assert.throws(() => loadChain(broken), { code: 'conflict' });
  }
});
