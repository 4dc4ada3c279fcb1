/**
 * The chain checks of SPEC.md §6 `logs_check_passed`, as verify and every decision run them. Check
 * 3 (the ES384 signatures) is the costly one: an event this process has verified or signed is in
 * the verification memory, and a chain whose head carries a matching seal (`verified-heads.ts`;
 * every append writes one) was verified in full before, perhaps before a restart; only what
 * neither covers is verified again. Checking writes nothing: sealing a chain verified in full is
 * its own step ({@link sealVerified}), which verify takes and a decision under the lock does not.
 */
import { verifyChain } from '../ledger/index.js';
import type { ChainVerification, SignatureCheck } from '../ledger/index.js';
import type { ChainState } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

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
  deps: Pick<ServiceDeps, 'verifier' | 'verifiedHeads'>,
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
  const sealed =
    !remembered && (await deps.verifiedHeads.vouchFor(state).catch(() => false)) === true;
  const chain = await verifyChain(input, sealed ? SEALED : deps.verifier);
  // What the seal vouched for is as good as verified here: the next check needs no seal read.
  if (sealed && chain.ok) for (const event of state.events) deps.verifier.vouch(event);
  return { chain, verifiedInFull: chain.ok && !sealed };
}

/**
 * Seals a chain just verified in full, so the first verify after a restart need not check its
 * signatures again. Only saves work: a store that cannot take the seal now answers all the same.
 */
export async function sealVerified(
  deps: Pick<ServiceDeps, 'verifiedHeads'>,
  state: ChainState,
  checked: CheckedChain,
): Promise<void> {
  if (!checked.verifiedInFull) return;
  await deps.verifiedHeads.remember(state).catch(() => undefined);
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

/** What verify and the list make of a chain: every check, the log's last, and a seal if new. */
export async function checkAndSeal(
  deps: Pick<ServiceDeps, 'verifier' | 'verifiedHeads' | 'firstNotInLog'>,
  state: ChainState,
): Promise<ChainVerification> {
  const checked = await checkChain(deps, state, 'verify');
  await sealVerified(deps, state, checked);
  return checkInLog(deps, state, checked.chain);
}
