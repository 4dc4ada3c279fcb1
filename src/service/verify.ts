/**
 * Verify (seed §4.2, §2.3; SPEC.md §6): parse and check the link, check the document, re-verify
 * the chain, and answer the short variant, or, for a caller with a valid token, the variant with
 * transactions. `valid` needs the link signature, the schema and all three tamper checks.
 */
import type { Principal } from '../auth/index.js';
import { ErxError } from '../errors.js';
import { parseEventBody, tamperDetectionResult, verifyChain } from '../ledger/index.js';
import type { EventBody, LedgerRecord } from '../ledger/index.js';
import { deepFreeze, parseJsonSafe } from '../json/index.js';
import type { ChainState } from '../store/types.js';
import { chainFacts } from './chain-state.js';
import { storedPrescriptionMatches } from './check-stored-prescription.js';
import type { ServiceDeps } from './deps.js';
import { eventView, partialDispensations } from './event-view.js';
import { formatIssuedAt } from './issued-at.js';
import type { LinkFacts, LinkFactsMemo } from './link-facts.js';
import type { VerifyFull, VerifyShort } from './types.js';

/** The link from a verify body: the raw text, or a JSON string holding it. */
function linkText(body: string): string {
  const text = body.trim();
  if (!text.startsWith('"')) return text;
  const value = parseJsonSafe(text);
  if (typeof value !== 'string') throw new ErxError('bad_request', 'The body must be the link.');
  return value;
}

/** Both variants of the answer for one link and one chain as read. */
interface Answers {
  readonly short: VerifyShort;
  readonly full: () => VerifyFull;
}

/**
 * Answers remembered per chain as read (a frozen chain state: the store gives the same object
 * while nothing changed it) and per link facts (the same object while the link text and the key
 * ring are the same). The answer is a function of those two and the service's configuration, so
 * a link verified again at the counter costs two lookups; a changed chain or key ring is another
 * key. Frozen, so every caller gets the same answer object.
 */
const remembered = new WeakMap<ChainState, WeakMap<LinkFacts, Answers>>();

/** Verifies a link; `principal` selects the variant with transactions. */
export async function verify(
  deps: ServiceDeps,
  links: LinkFactsMemo,
  body: string,
  principal: Principal | undefined,
): Promise<VerifyShort | VerifyFull> {
  const facts = links.factsOf(linkText(body), deps.linkKeys);
  const state = await deps.store.getChain(facts.id);
  if (!state) throw new ErxError('not_found', 'No prescription with this id.');
  const answers = await answersFor(deps, facts, state);
  return principal ? answers.full() : answers.short;
}

async function answersFor(
  deps: ServiceDeps,
  facts: LinkFacts,
  state: ChainState,
): Promise<Answers> {
  if (!Object.isFrozen(state)) return answer(deps, facts, state);
  let byLink = remembered.get(state);
  if (byLink === undefined) {
    byLink = new WeakMap();
    remembered.set(state, byLink);
  }
  let answers = byLink.get(facts);
  if (answers === undefined) {
    answers = await answer(deps, facts, state);
    byLink.set(facts, answers);
  }
  return answers;
}

/** Checks the chain against the link and builds the answer (the variant with transactions on first use). */
async function answer(deps: ServiceDeps, facts: LinkFacts, state: ChainState): Promise<Answers> {
  const { link, id, schemaOk, medicaments, signatureOk } = facts;
  const chain = await verifyChain(
    { prescriptionId: id, events: state.events, headHash: state.prescription.headHash },
    deps.verifier,
  );
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
  const chainFactsNow = chainFacts(bodies);
  const short: VerifyShort = deepFreeze({
    prescription_id: id,
    issued_at: formatIssuedAt(state.prescription.issuedAt, deps.timezone),
    issued_by: state.prescription.issuer,
    valid:
      signatureOk &&
      schemaOk &&
      tampering.prescription_url_valid &&
      tampering.prescription_hash_check_passed &&
      tampering.logs_check_passed,
    revoked: chainFactsNow.revoked,
    dispensed: chainFactsNow.dispensed,
  });
  let full: VerifyFull | undefined;
  return {
    short,
    full: () => {
      if (full !== undefined) return full;
      const built: VerifyFull = {
        ...short,
        locked: chainFactsNow.lock !== undefined,
        partial_dispensations: partialDispensations(bodies, chainFactsNow),
        events: shown.map(({ body, row }) => eventView(body, row, chainFactsNow)),
        tampering_detection_result: tampering,
      };
      if (chainFactsNow.lock) built.locked_at = chainFactsNow.lock.at;
      full = deepFreeze(built);
      return full;
    },
  };
}
