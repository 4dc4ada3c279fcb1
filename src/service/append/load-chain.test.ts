/**
 * Loading a chain for a decision (SPEC.md §10, last point): a chain that passes every check loads
 * into its facts; a chain or a row that fails one refuses the decision.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Clock, EventVerifier, appendEvent, sha256Hex } from '../../ledger/index.js';
import { LinkKeyring } from '../../link/index.js';
import { memoryPki } from '../../../test/support/ledger/chain.js';
import type { ChainState } from '../../store/types.js';
import type { ServiceDeps } from '../deps.js';
import { loadChain } from './load-chain.js';
import { TermsVerifier, signTerms } from '../rules/terms.js';
import { VerificationMemory } from '../../memory/verification-memory.js';

const clock = new Clock();

const dir = mkdtempSync(join(tmpdir(), 'erx-load-chain-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const linkKeys = LinkKeyring.open(join(dir, 'link-keys'), { now: 1_600_000_000 });
const DAY = 86_400_000;

async function chainState(): Promise<{ state: ChainState; deps: ServiceDeps }> {
  const pki = await memoryPki();
  const reference = randomUUID();
  const actor = { actor: 'HIN|dr', actor_name: 'Dr. A' };
  const create = await appendEvent(
    undefined,
    { type: 'create', reference, ...actor, prescription_hash: sha256Hex('CHMED16A1x') },
    pki.signer,
    clock,
  );
  const lock = await appendEvent(create, { type: 'lock', reference, ...actor }, pki.signer, clock);
  const copies = {
    id: reference,
    issuer: 'Dr. A (HIN|dr)',
    issuerActor: 'HIN|dr',
    issuedAt: 1_700_000_000,
    medicaments: [{ Id: '7680543201015', IdType: 2, NbPack: 2 }],
  };
  const state: ChainState = {
    prescription: {
      ...copies,
      headHash: lock.hash,
      terms: signTerms(linkKeys, copies, 1_700_000_000_000 + 365 * DAY),
    },
    events: [create, lock].map((e) => ({ ...e, prescriptionId: reference })),
  };
  const deps = {
    verifier: new EventVerifier(pki.trustStore, new VerificationMemory()),
    verifiedHeads: { vouchFor: async () => 'nothing' },
    terms: new TermsVerifier(linkKeys, new VerificationMemory().terms),
    linkKeys,
    prescriptionValidityMs: 365 * DAY,
    lockTtlMs: 15 * 60_000,
    clock: new Clock(() => 1_700_000_000_000),
  } as unknown as ServiceDeps;
  return { state, deps };
}

test('a chain that passes its checks loads into its bodies, terms and facts', async () => {
  const { state, deps } = await chainState();
  const first = await loadChain(deps, state, 'before');
  assert.deepEqual(
    first.bodies.map((b) => b.type),
    ['create', 'lock'],
  );
  assert.equal(first.terms.issuerActor, 'HIN|dr');
  assert.deepEqual(first.facts.medicaments, [
    { id: '7680543201015', prescribed: 2, substitutionAllowed: true, dispensed: 0 },
  ]);
  assert.deepEqual(
    await loadChain(deps, state, 'before'),
    first,
    'the same rows load the same chain',
  );
});

test('a body that does not parse refuses the decision every time (conflict)', async () => {
  const { state, deps } = await chainState();
  const broken = {
    ...state,
    events: [state.events[0]!, { ...state.events[1]!, body: '{"not":"an event"}' }],
  };
  for (let round = 0; round < 2; round++) {
    await assert.rejects(loadChain(deps, broken, 'before'), { code: 'conflict' });
  }
});

test('an edited copy in the row refuses the decision: issuer, medicaments, expiry', async () => {
  const { state, deps } = await chainState();
  const p = state.prescription;
  const edits: ChainState['prescription'][] = [
    { ...p, issuerActor: 'HIN|other' },
    { ...p, medicaments: [{ Id: '7680543201015', IdType: 2, NbPack: 20 }] },
    { ...p, terms: { ...p.terms!, expiresAt: p.terms!.expiresAt + DAY } },
  ];
  for (const prescription of edits) {
    await assert.rejects(loadChain(deps, { ...state, prescription }, 'before'), {
      code: 'conflict',
      causeCode: 'ledger_corrupt',
    });
  }
});

test('a signature that does not verify refuses the decision', async () => {
  const { state, deps } = await chainState();
  const last = state.events[1]!;
  const [header, payload, signature] = last.signature.split('.');
  const flipped = `${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
  const events = [state.events[0]!, { ...last, signature: `${header}.${payload}.${flipped}` }];
  await assert.rejects(loadChain(deps, { ...state, events }, 'before'), { code: 'conflict' });
});
