/**
 * Verify (seed §4.2, §2.3; SPEC.md §6): parse and check the link, check the document, re-verify
 * the chain, and answer the short variant, or, for a caller with a valid token, the variant with
 * transactions. `valid` needs the link signature, the schema and all three tamper checks.
 *
 * The answer is a function of the link text, the key ring, the chain as read and the service's
 * configuration; the verification cache remembers it under those (`verification-cache.ts`).
 */
import type { Principal } from '../auth/index.js';
import { ErxError } from '../errors.js';
import { deepFreeze } from '../json/index.js';
import { parseEventBody, tamperDetectionResult, verifyChain } from '../ledger/index.js';
import type {
  ChainVerification,
  EventBody,
  LedgerRecord,
  SignatureCheck,
} from '../ledger/index.js';
import type { ChainState } from '../store/types.js';
import { chainFacts } from './chain-state.js';
import { storedPrescriptionMatches } from './check-stored-prescription.js';
import type { ServiceDeps } from './deps.js';
import { eventView, partialDispensations } from './event-view.js';
import { readLinkFacts } from './link-facts.js';
import type { LinkFacts } from './link-facts.js';
import type { VerifyAnswers, VerifyOutcome } from './verification-cache.js';
import type { VerifyFull, VerifyShort } from './types.js';

/** Check 3 for a chain whose signatures a matching seal vouches for (`verified-heads.ts`). */
const SEALED: SignatureCheck = { verify: async () => undefined };

/** Verifies the link `text`; `principal` selects the variant with transactions. */
export async function verify(
  deps: ServiceDeps,
  text: string,
  principal: Principal | undefined,
): Promise<VerifyOutcome> {
  const keys = deps.linkKeys;
  // Looks for another instance's rotation when due: a new generation is another cache key.
  keys.refresh();
  const link = deps.cache.linkFacts(text, keys.generation, () => readLinkFacts(text, keys));
  const chain = await deps.store.readChain(link.facts.id);
  if (!chain) throw new ErxError('not_found', 'No prescription with this id.');
  return deps.cache.answer(link, chain, principal !== undefined, () =>
    answers(deps, link.facts, chain.state),
  );
}

/** Verifies the chain, using and renewing its sealed head when the service keeps them. */
async function checkChain(deps: ServiceDeps, state: ChainState): Promise<ChainVerification> {
  const input = {
    prescriptionId: state.prescription.id,
    events: state.events,
    headHash: state.prescription.headHash,
  };
  // A seal that cannot be read is no seal: the chain is verified in full.
  const sealed = (await deps.verifiedHeads?.vouchFor(state).catch(() => false)) === true;
  const chain = await verifyChain(input, sealed ? SEALED : deps.verifier);
  if (chain.ok && !sealed) {
    // Only saves work after a restart: a store that cannot take the seal now answers all the same.
    await deps.verifiedHeads?.remember(state).catch(() => undefined);
  }
  return chain;
}

/** Checks the chain against the link and builds both answers (the full one on first use). */
async function answers(
  deps: ServiceDeps,
  facts: LinkFacts,
  state: ChainState,
): Promise<VerifyAnswers> {
  const { link, id, schemaOk, medicaments, signatureOk } = facts;
  const chain = await checkChain(deps, state);
  const checks = tamperDetectionResult({
    prescriptionUrlValid: signatureOk && link.baseUrl === deps.prescriptionUrl,
    chmed: link.chmed,
    chain,
  });
  // The stored prescription must be the link's, beside its hash: see check-stored-prescription.ts.
  const tampering = {
    ...checks,
    prescription_hash_check_passed:
      checks.prescription_hash_check_passed &&
      storedPrescriptionMatches(state.prescription, link, medicaments, chain.bodies[0]),
  };
  // On a broken chain, report the state of the events that still parse, each beside its own row
  // (by position: a tampered id column must not decide which row a body is shown with).
  const shown: { body: EventBody; row: LedgerRecord }[] = state.events.flatMap((row, index) => {
    if (chain.ok) return [{ body: chain.bodies[index]!, row }];
    const parsed = parseEventBody(row.body);
    return parsed.ok ? [{ body: parsed.body, row }] : [];
  });
  const bodies = shown.map((s) => s.body);
  const folded = chainFacts(bodies);
  // Frozen: one answer object is shared by every caller the cache gives it to.
  const short: VerifyShort = deepFreeze({
    prescription_id: id,
    issued_at: deps.issuedAt.format(state.prescription.issuedAt),
    issued_by: state.prescription.issuer,
    valid:
      signatureOk &&
      schemaOk &&
      tampering.prescription_url_valid &&
      tampering.prescription_hash_check_passed &&
      tampering.logs_check_passed,
    revoked: folded.revoked,
    dispensed: folded.dispensed,
  });
  let full: VerifyFull | undefined;
  return {
    short,
    full: () => {
      if (full !== undefined) return full;
      const built: VerifyFull = {
        ...short,
        locked: folded.lock !== undefined,
        partial_dispensations: partialDispensations(bodies, folded),
        events: shown.map(({ body, row }) => eventView(body, row, folded)),
        tampering_detection_result: tampering,
      };
      if (folded.lock) built.locked_at = folded.lock.at;
      full = deepFreeze(built);
      return full;
    },
  };
}
