/**
 * The chain checks of SPEC.md §6 `logs_check_passed`, as verify and every decision run them. Check
 * 3 (the ES384 signatures) is the costly one: an event this process has verified or signed is in
 * the verification memory, and a chain whose head carries a matching seal (`verified-heads.ts`;
 * every append writes one) was verified in full before, perhaps before a restart, its terms too
 * when the seal covers them; only what neither covers is verified again. Checking writes nothing:
 * sealing a chain verified in full is its own step ({@link sealVerified}), which verify and the
 * list take ({@link checkForAnswer}) and a decision under the lock does not.
 */
import { parseEventBody, verifyChain } from '../../ledger/index.js';
import type {
  ChainVerification,
  EventBody,
  LedgerRecord,
  SignatureCheck,
} from '../../ledger/index.js';
import type { ChainState } from '../../store/types.js';
import type { ServiceDeps } from '../deps.js';
import { copiedTerms, readTerms } from '../rules/terms.js';
import type { Terms } from '../rules/terms.js';

/** Check 3 for a chain whose signatures a matching seal vouches for. */
const SEALED: SignatureCheck = { verify: async () => undefined };

/** A chain's checks, and whether they verified its signatures in full (no seal vouched). */
export interface CheckedChain {
  readonly chain: ChainVerification;
  /** Passed with every signature verified here: {@link sealVerified} may seal it. */
  readonly verifiedInFull: boolean;
}

/**
 * Who checks: a decision reads no seal for a chain whose events the memory holds; verify reads it
 * always, so that a missing or stale seal is found and {@link sealVerified} renews it.
 */
export type CheckFor = 'decision' | 'verify';

/**
 * Checks 1 to 4 of `state`'s chain (bodies, hashes, links, signatures, head); a matching seal
 * stands for check 3.
 */
export async function checkChain(
  deps: Pick<ServiceDeps, 'verifier' | 'verifiedHeads' | 'terms'>,
  state: ChainState,
  checkFor: CheckFor,
): Promise<CheckedChain> {
  const input = {
    prescriptionId: state.prescription.id,
    events: state.events,
    headHash: state.prescription.headHash,
  };
  const remembered =
    checkFor === 'decision' && state.events.every((event) => deps.verifier.knows(event));
  // A seal that cannot be read is no seal: the chain is verified in full.
  const vouched = remembered
    ? 'nothing'
    : await deps.verifiedHeads.vouchFor(state).catch(() => 'nothing' as const);
  const sealed = vouched !== 'nothing';
  const chain = await verifyChain(input, sealed ? SEALED : deps.verifier);
  // Terms the seal vouches for are as good as verified here: reading them checks no signature.
  const { terms } = state.prescription;
  if (chain.ok && vouched === 'signatures_and_terms' && terms !== undefined) {
    deps.terms.vouch(state.prescription, terms);
  }
  return { chain, verifiedInFull: chain.ok && !sealed };
}

/** An event as the log's admission asks about it (`src/transparency/pick-leaves.ts`). */
export type ChainEvent = LedgerRecord & { readonly prescriptionId: string; readonly seq: number };

/**
 * The log's admission of events this instance did not sign, once their hash and link are checked
 * (`leafAdmission`): `event`'s signature verified here before, or `event` is in its chain as
 * stored now, with its signature, and that chain passes checks 1 to 4 (a matching seal, which
 * another instance sharing the data directory's keys wrote with its append, standing for check
 * 3). An event signed elsewhere then costs a chain check once per chain instead of an ES384 check
 * each: the chain's events are remembered as verified.
 */
export function chainVouches(
  deps: Pick<ServiceDeps, 'store' | 'verifier' | 'verifiedHeads' | 'terms'>,
): (event: ChainEvent) => Promise<boolean> {
  return async (event) => {
    if (deps.verifier.knows(event)) return true;
    const state = (await deps.store.readChain(event.prescriptionId))?.state;
    const stored = state?.events[event.seq];
    if (state === undefined || stored?.hash !== event.hash) return false;
    if (stored.signature !== event.signature) return false;
    if (!(await checkChain(deps, state, 'decision')).chain.ok) return false;
    for (const checked of state.events) deps.verifier.vouch(checked);
    return true;
  };
}

/**
 * Seals a chain just verified in full, so the first verify after a restart need not check its
 * signatures again. Only saves work: a store that cannot take the seal now answers all the same.
 */
export async function sealVerified(
  deps: Pick<ServiceDeps, 'verifiedHeads'>,
  state: ChainState,
  checked: CheckedChain,
  termsHeld: boolean,
): Promise<void> {
  if (!checked.verifiedInFull) return;
  await deps.verifiedHeads.remember(state, termsHeld).catch(() => undefined);
}

/**
 * The transparency log's check after checks 1 to 4: a chain that passes them with erx's own keys
 * may still not be the one the log's checkpoints signed (re-signed by someone holding them).
 */
export async function checkInLog(
  deps: Pick<ServiceDeps, 'firstNotInLog'>,
  state: ChainState,
  chain: ChainVerification,
): Promise<ChainVerification> {
  if (!chain.ok) return chain;
  const notInLog = await deps.firstNotInLog(state.events);
  if (notInLog === undefined) return chain;
  return { ...chain, ok: false, firstBadIndex: notInLog, failedCheck: 'log', reason: 'not_in_log' };
}

/** A chain as verify and the list show it. */
export interface AnsweredChain {
  /** Every check, the log's last. */
  readonly chain: ChainVerification;
  /**
   * The events shown: on a broken chain those that still parse, each beside its own row (by
   * position: a tampered id column must not decide which row a body is shown with).
   */
  readonly shown: readonly { readonly body: EventBody; readonly row: LedgerRecord }[];
  /** The signed terms, or the row's copies when those fail ({@link termsOk} false). */
  readonly terms: Terms;
  readonly termsOk: boolean;
}

/**
 * What verify and the list make of a chain: every check, the log's last, the terms, and a seal if
 * the chain was verified in full here (over its terms too when they held).
 */
export async function checkForAnswer(
  deps: Pick<
    ServiceDeps,
    'verifier' | 'verifiedHeads' | 'firstNotInLog' | 'terms' | 'prescriptionValidityMs'
  >,
  state: ChainState,
): Promise<AnsweredChain> {
  const checked = await checkChain(deps, state, 'verify');
  const chain = await checkInLog(deps, state, checked.chain);
  const shown = state.events.flatMap((row, index) => {
    if (chain.ok) return [{ body: chain.bodies[index]!, row }];
    const parsed = parseEventBody(row.body);
    return parsed.ok ? [{ body: parsed.body, row }] : [];
  });
  const first = shown[0]?.body;
  const { terms, ok: termsOk } = shownTerms(
    deps,
    state,
    first?.type === 'create' ? first : undefined,
  );
  await sealVerified(deps, state, checked, termsOk);
  return { chain, shown, terms, termsOk };
}

/** The terms an answer shows: the signed ones, or the row's copies when those fail. */
function shownTerms(
  deps: Pick<ServiceDeps, 'terms' | 'prescriptionValidityMs'>,
  state: ChainState,
  create: EventBody | undefined,
): { terms: Terms; ok: boolean } {
  const row = state.prescription;
  const read =
    create === undefined
      ? 'issuer'
      : readTerms(row, create, deps.terms, deps.prescriptionValidityMs);
  if (typeof read !== 'string') return { terms: read, ok: true };
  return { terms: copiedTerms(row, deps.prescriptionValidityMs), ok: false };
}
