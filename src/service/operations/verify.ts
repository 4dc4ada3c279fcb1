/**
 * Verify (seed §4.2, §2.3; SPEC.md §6, §10): parse and check the link, check the document,
 * re-verify the chain, and answer the short variant or, for a pharmacist or the issuing
 * prescriber, the variant with transactions. `valid` needs the link signature, the schema and all
 * three tamper checks.
 *
 * Who sees what (SPEC.md §10): anyone else gets the short variant. For a link whose signature
 * fails, the variant with transactions goes only to the issuer and to pharmacies with a dispense or
 * cancel event on the chain; everyone else gets a short answer that says nothing about the store
 * (every flag false, whether the id exists or not), so a bare id is no oracle.
 *
 * The answer is a function of the link text, the key ring, the chain as read, the service's
 * configuration and the time (locks lapse, prescriptions expire); the verification cache
 * remembers it under the first three (the chain by its rows) until the time at which it would
 * change (`../verification/verification-cache.ts`).
 */
import type { Principal } from '../../auth/index.js';
import { ErxError } from '../../errors.js';
import { deepFreeze } from '../../json/index.js';
import {
  EVENT_KINDS,
  formatTimestamp,
  parseEventBody,
  tamperDetectionResult,
} from '../../ledger/index.js';
import type { ChainState } from '../../store/types.js';
import { cancelledIn, chainFacts } from '../rules/chain-state.js';
import { checkForAnswer } from '../verification/check-chain.js';
import type { ChainFacts } from '../rules/chain-state.js';
import { storedPrescriptionMatches } from '../verification/check-stored-prescription.js';
import type { ServiceDeps } from '../deps.js';
import { eventView, partialDispensations } from '../view/event-view.js';
import { canonicalId } from '../ids.js';
import { readLinkFacts } from '../verification/link-facts.js';
import type { LinkFacts } from '../verification/link-facts.js';
import type {
  KnownLink,
  VerifyAnswers,
  VerifyOutcome,
} from '../verification/verification-cache.js';
import { outcomeOf } from '../verification/verification-cache.js';
import type { VerifyFull, VerifyShort } from '../types.js';

/** Verifies the link `text` for `principal` (undefined: no token sent). */
export async function verify(
  deps: ServiceDeps,
  text: string,
  principal: Principal | undefined,
): Promise<VerifyOutcome> {
  const link = knownLink(deps, text);
  const { facts } = link;
  const id = canonicalId(facts.id);
  if (!facts.signatureOk) {
    // Only the issuer and the pharmacies involved read a history through a forged link; anyone
    // else learns nothing from it, and an anonymous caller's answer reads nothing from the store.
    const chain = principal === undefined ? undefined : (await deps.store.readChain(id))?.state;
    if (chain === undefined || principal === undefined || !readsForgedHistory(chain, principal)) {
      return outcomeOf(unsigned(deps, facts));
    }
    return answerFor(deps, link, chain, true);
  }
  const chain = (await deps.store.readChain(id))?.state;
  if (!chain) throw new ErxError('not_found', 'No prescription with this id.');
  const full =
    principal !== undefined &&
    (principal.role === 'pharmacist' || issuerOf(chain) === principal.sub);
  return answerFor(deps, link, chain, full);
}

/**
 * Whether `principal` reads the history of `state` through a link whose signature fails (SPEC.md
 * §10 "Who sees what"): the issuer does, and a pharmacy that has a dispense or cancel event on the
 * chain (the kinds that involve their actor); a lock or unlock alone involves no one. Read from the
 * stored bodies as {@link issuerOf} reads the issuer: the answer then shows the chain's checks.
 */
export function readsForgedHistory(state: ChainState, principal: Principal): boolean {
  if (issuerOf(state) === principal.sub) return true;
  if (principal.role !== 'pharmacist') return false;
  return state.events.some((row) => {
    const parsed = parseEventBody(row.body);
    return (
      parsed.ok && parsed.body.actor === principal.sub && EVENT_KINDS[parsed.body.type].involves
    );
  });
}

/** The facts of link `text` under the current key ring, as the cache remembers them. */
export function knownLink(deps: ServiceDeps, text: string): KnownLink {
  const keys = deps.linkKeys;
  // Looks for another instance's rotation when due: a new generation is another cache key.
  keys.refresh();
  return deps.cache.linkFacts(text, keys.generation, () => readLinkFacts(text, keys));
}

/** The answer for `link` over the chain `state` as read, with transactions when `full`; remembered. */
export function answerFor(
  deps: ServiceDeps,
  link: KnownLink,
  state: ChainState,
  full: boolean,
): Promise<VerifyOutcome> {
  return deps.cache.answer(link, state, full, deps.clock.now(), () =>
    answers(deps, link.facts, state),
  );
}

/**
 * The issuing prescriber's actor id: the create event's `actor` when the first stored event reads
 * as one, else the row's copy (a chain that fails its checks says so in the answer).
 */
export function issuerOf(state: ChainState): string {
  const first = state.events[0];
  const parsed = first === undefined ? undefined : parseEventBody(first.body);
  if (parsed?.ok === true && parsed.body.type === 'create') return parsed.body.actor;
  return state.prescription.issuerActor;
}

/** The short answer to a link whose signature fails: from the link alone, every flag false. */
export function unsigned(deps: ServiceDeps, facts: LinkFacts): VerifyShort {
  return deepFreeze({
    prescription_id: canonicalId(facts.id),
    issued_at: deps.issuedAt.format(facts.link.issuedAt),
    issued_by: facts.link.issuer,
    valid: false,
    revoked: false,
    dispensed: false,
  });
}

/** A time in unix ms as the answer shows times: UTC with fractional seconds. */
export function utc(ms: number): string {
  return formatTimestamp(BigInt(ms) * 1_000_000n);
}

/** The earliest time after `now` at which facts folded at `now` would change. */
function changesAt(facts: ChainFacts, now: number): number {
  const times = [facts.lock?.expiresAt, facts.expired ? undefined : facts.expiresAt];
  return Math.min(...times.filter((t): t is number => t !== undefined && t > now), Infinity);
}

/** Checks the chain against the link and builds both answers (the full one on first use). */
async function answers(
  deps: ServiceDeps,
  facts: LinkFacts,
  state: ChainState,
): Promise<VerifyAnswers> {
  const { link, schemaOk, medicaments, signatureOk } = facts;
  const { chain, shown, terms, termsOk } = await checkForAnswer(deps, state);
  const checks = tamperDetectionResult({
    prescriptionUrlValid: signatureOk && link.baseUrl === deps.prescriptionUrl,
    chmed: link.chmed,
    chain,
  });
  const bodies = shown.map((s) => s.body);
  // The stored prescription must be the link's, beside its hash: see ../verification/check-stored-prescription.ts.
  const tampering = {
    ...checks,
    prescription_hash_check_passed:
      checks.prescription_hash_check_passed &&
      termsOk &&
      storedPrescriptionMatches(state.prescription, link, medicaments, chain.bodies[0]),
  };
  const now = deps.clock.now();
  const folded = chainFacts(bodies, terms, now);
  // Frozen: one answer object is shared by every caller the cache gives it to.
  const short: VerifyShort = deepFreeze({
    prescription_id: state.prescription.id,
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
    until: changesAt(folded, now),
    full: () => {
      if (full !== undefined) return full;
      const cancelled = cancelledIn(bodies);
      const { completion, lock } = folded;
      full = deepFreeze({
        ...short,
        ...(completion && { dispensed_at: completion.at, dispensed_by: completion.by }),
        locked: lock !== undefined,
        ...(lock && { locked_at: lock.at, locked_by: lock.actorName || lock.actor }),
        expires_at: utc(folded.expiresAt),
        expired: folded.expired,
        medicaments: folded.medicaments.map((m) => ({
          id: m.id,
          prescribed: m.prescribed,
          dispensed: m.dispensed,
          remaining: Math.max(0, m.prescribed - m.dispensed),
          substitution_allowed: m.substitutionAllowed,
        })),
        partial_dispensations: partialDispensations(bodies, cancelled),
        events: shown.map(({ body, row }) => eventView(body, row, cancelled)),
        tampering_detection_result: tampering,
      } satisfies VerifyFull);
      return full;
    },
  };
}
