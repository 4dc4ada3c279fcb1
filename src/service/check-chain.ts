/**
 * The chain checks of SPEC.md §6 `logs_check_passed`, as verify and every decision run them. Check
 * 3 (the ES384 signatures) is the costly one: an event this process has verified or signed is in
 * the verifier's memo, and a chain whose head carries a matching seal (`verified-heads.ts`; every
 * append writes one) was verified in full before, perhaps before a restart; only what neither
 * covers is verified again.
 */
import { verifyChain } from '../ledger/index.js';
import type { ChainVerification, SignatureCheck } from '../ledger/index.js';
import type { ChainState } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

/** Check 3 for a chain whose signatures a matching seal vouches for. */
const SEALED: SignatureCheck = { verify: async () => undefined };

/** How a check treats the seal: verify renews it after a full check, a decision only reads it. */
export type SealUse = 'read' | 'renew';

/**
 * Verifies `state`'s chain. With `renew`, a chain verified in full is sealed (verify does, outside
 * any lock); a decision, which holds the prescription's lock, only reads the seal.
 */
export async function checkChain(
  deps: Pick<ServiceDeps, 'verifier' | 'verifiedHeads' | 'firstNotInLog'>,
  state: ChainState,
  seal: SealUse,
): Promise<ChainVerification> {
  const input = {
    prescriptionId: state.prescription.id,
    events: state.events,
    headHash: state.prescription.headHash,
  };
  // A decision whose events the memo holds needs no seal; verify reads it to renew it when stale.
  const remembered = seal === 'read' && state.events.every((event) => deps.verifier.knows(event));
  // A seal that cannot be read is no seal: the chain is verified in full.
  const sealed =
    !remembered && (await deps.verifiedHeads?.vouchFor(state).catch(() => false)) === true;
  const chain = await verifyChain(input, sealed ? SEALED : deps.verifier);
  // What the seal vouched for is as good as verified here: the next check needs no seal read.
  if (sealed && chain.ok) for (const event of state.events) deps.verifier.vouch(event);
  if (seal === 'renew' && chain.ok && !sealed) {
    // Only saves work after a restart: a store that cannot take the seal now answers all the same.
    await deps.verifiedHeads?.remember(state).catch(() => undefined);
  }
  if (!chain.ok || deps.firstNotInLog === undefined) return chain;
  // Last: a chain that passes every check with erx's own keys may still not be the one the
  // transparency log's checkpoints signed (re-signed by someone holding them).
  const notInLog = await deps.firstNotInLog(state.events);
  if (notInLog === undefined) return chain;
  return { ...chain, ok: false, firstBadIndex: notInLog, failedCheck: 'log', reason: 'not_in_log' };
}
