/**
 * Verify (seed §4.2, §2.3; SPEC.md §6, §10): parse and check the link, check the document,
 * re-verify the chain, and answer the short variant or, for a pharmacist or the issuing
 * prescriber, the variant with transactions. `valid` needs the link signature, the schema and all
 * three tamper checks.
 *
 * Who sees what (SPEC.md §10): anyone else gets the short variant, and a short answer for a link
 * whose signature fails says nothing about the store (every flag false, whether the id exists or
 * not), so a bare id is no oracle.
 *
 * The answer is a function of the link text, the key ring, the chain as read, the service's
 * configuration and the time (locks lapse, prescriptions expire); the verification cache
 * remembers it under the first three until the time at which it would change
 * (`verification-cache.ts`).
 */
import type { Principal } from '../auth/index.js';
import { ErxError } from '../errors.js';
import { deepFreeze } from '../json/index.js';
import { formatTimestamp, parseEventBody, tamperDetectionResult } from '../ledger/index.js';
import type { EventBody, LedgerRecord } from '../ledger/index.js';
import type { ChainRead, ChainState } from '../store/types.js';
import { cancelledIn, chainFacts } from './chain-state.js';
import { checkAndSeal } from './check-chain.js';
import type { ChainFacts } from './chain-state.js';
import { storedPrescriptionMatches } from './check-stored-prescription.js';
import type { ServiceDeps } from './deps.js';
import { eventView, partialDispensations } from './event-view.js';
import { canonicalId } from './ids.js';
import { readLinkFacts } from './link-facts.js';
import type { LinkFacts } from './link-facts.js';
import { copiedTerms, readTerms } from './terms.js';
import type { Terms } from './terms.js';
import type { KnownLink, VerifyAnswers, VerifyOutcome } from './verification-cache.js';
import { outcomeOf } from './verification-cache.js';
import type { VerifyFull, VerifyShort } from './types.js';

/** Verifies the link `text` for `principal` (undefined: no token sent). */
export async function verify(
  deps: ServiceDeps,
  text: string,
  principal: Principal | undefined,
): Promise<VerifyOutcome> {
  const link = knownLink(deps, text);
  const { facts } = link;
  const id = canonicalId(facts.id);
  // Only a pharmacist or the issuer may see more; anyone else learns nothing from a forged link.
  if (!facts.signatureOk && principal?.role !== 'pharmacist') {
    const chain = principal === undefined ? undefined : await deps.store.readChain(id);
    if (chain === undefined || issuerOf(chain.state) !== principal?.sub) {
      return outcomeOf(unsigned(deps, facts));
    }
  }
  const chain = await deps.store.readChain(id);
  if (!chain) throw new ErxError('not_found', 'No prescription with this id.');
  const full =
    principal !== undefined &&
    (principal.role === 'pharmacist' || issuerOf(chain.state) === principal.sub);
  return answerFor(deps, link, chain, full);
}

/** The facts of link `text` under the current key ring, as the cache remembers them. */
export function knownLink(deps: ServiceDeps, text: string): KnownLink {
  const keys = deps.linkKeys;
  // Looks for another instance's rotation when due: a new generation is another cache key.
  keys.refresh();
  return deps.cache.linkFacts(text, keys.generation, () => readLinkFacts(text, keys));
}

/** The answer for `link` over `chain` as read, with transactions when `full`; remembered. */
export function answerFor(
  deps: ServiceDeps,
  link: KnownLink,
  chain: ChainRead,
  full: boolean,
): Promise<VerifyOutcome> {
  return deps.cache.answer(link, chain, full, deps.clock.now(), () =>
    answers(deps, link.facts, chain.state),
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

/** The terms the answer shows: the signed ones, or the row's copies when those fail. */
export function shownTerms(
  deps: ServiceDeps,
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
  const chain = await checkAndSeal(deps, state);
  const checks = tamperDetectionResult({
    prescriptionUrlValid: signatureOk && link.baseUrl === deps.prescriptionUrl,
    chmed: link.chmed,
    chain,
  });
  // On a broken chain, report the state of the events that still parse, each beside its own row
  // (by position: a tampered id column must not decide which row a body is shown with).
  const shown: { body: EventBody; row: LedgerRecord }[] = state.events.flatMap((row, index) => {
    if (chain.ok) return [{ body: chain.bodies[index]!, row }];
    const parsed = parseEventBody(row.body);
    return parsed.ok ? [{ body: parsed.body, row }] : [];
  });
  const bodies = shown.map((s) => s.body);
  const create = bodies[0]?.type === 'create' ? bodies[0] : undefined;
  const { terms, ok: termsOk } = shownTerms(deps, state, create);
  // The stored prescription must be the link's, beside its hash: see check-stored-prescription.ts.
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
