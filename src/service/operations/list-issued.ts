/**
 * The prescriber's list (`GET /ePrescription/prescriptions`): the prescriptions the caller issued,
 * in id order, each with the state verify's variant with transactions shows (SPEC.md §10).
 *
 * Without the link, the list checks what the store alone can: the chain (SPEC.md §6
 * `logs_check_passed`) and the row's terms against their signature and the create event. A chain
 * that fails is listed with `valid: false` and the state its readable events show, as verify
 * shows it, never refusing the page. A prescription is the caller's when its create event's signed
 * actor is (the row's `issuer_actor` only finds candidates): an edited row lists nobody else's.
 */
import type { Principal } from '../../auth/index.js';
import type {
  ListState,
  ListedPrescription,
  PrescriptionList,
} from '../../api/prescription-list.js';
import { LIST_LIMIT } from '../../api/prescription-list.js';
import { chainFacts } from '../rules/chain-state.js';
import { checkForAnswer } from '../verification/check-chain.js';
import type { ServiceDeps } from '../deps.js';
import { requireRole } from '../rules/guards.js';
import { canonicalId } from '../ids.js';
import { issuerOf, utc } from './verify.js';

/** What one page asks for. */
export interface ListQuery {
  /** The last id of the previous page. */
  readonly after?: string;
  readonly limit?: number;
  readonly state?: ListState;
}

/** How many prescriptions a page with a state filter reads at most, per prescription asked for. */
export const SCAN_FACTOR = 5;

/** Whether a listed prescription is in `state` (each state is its flag; open is none of them). */
export function inState(item: ListedPrescription, state: ListState): boolean {
  switch (state) {
    case 'open':
      return !item.revoked && !item.dispensed && !item.expired;
    case 'dispensed':
      return item.dispensed;
    case 'revoked':
      return item.revoked;
    case 'expired':
      return item.expired;
  }
}

/**
 * One page of the prescriptions `principal` (a prescriber) issued. Without a state, `limit` of
 * them; with one, those in it among the next {@link SCAN_FACTOR} × `limit` at most. `next` is the
 * last id read, absent when none is left after it.
 */
export async function listIssued(
  deps: ServiceDeps,
  principal: Principal,
  query: ListQuery,
): Promise<PrescriptionList> {
  requireRole(principal, 'prescriber');
  const limit = query.limit ?? LIST_LIMIT.default;
  const budget = query.state === undefined ? limit : SCAN_FACTOR * limit;
  const prescriptions: ListedPrescription[] = [];
  let cursor = query.after === undefined ? undefined : canonicalId(query.after);
  let scanned = 0;
  for (;;) {
    // Chunks of a page's size, one more id than wanted saying whether anything is left after it.
    const want = Math.min(budget - scanned, limit);
    const ids = await deps.store.feed.listIssued(principal.sub, cursor, want + 1);
    const chunk = ids.slice(0, want);
    // The chunk's chains are read and checked together; a filtered page that fills up within a
    // chunk has read a few past its last match, and `next` names that match.
    const items = await Promise.all(chunk.map((id) => listed(deps, principal.sub, id)));
    let taken = 0;
    for (const item of items) {
      cursor = chunk[taken];
      taken += 1;
      if (item !== undefined && (query.state === undefined || inState(item, query.state))) {
        prescriptions.push(item);
      }
      if (prescriptions.length === limit) break;
    }
    scanned += taken;
    if (taken === chunk.length && ids.length <= want) return { prescriptions };
    if (prescriptions.length === limit || scanned >= budget) {
      return { prescriptions, next: cursor };
    }
  }
}

/** The list's view of prescription `id`, or undefined when it is gone or not `sub`'s. */
async function listed(
  deps: ServiceDeps,
  sub: string,
  id: string,
): Promise<ListedPrescription | undefined> {
  const state = (await deps.store.readChain(id))?.state;
  if (state === undefined) return undefined;
  if (issuerOf(state) !== sub) return undefined;
  const { chain, shown, terms, termsOk } = await checkForAnswer(deps, state);
  const bodies = shown.map((s) => s.body);
  const facts = chainFacts(bodies, terms, deps.clock.now());
  const { completion, lock } = facts;
  return {
    prescription_id: state.prescription.id,
    issued_at: deps.issuedAt.format(state.prescription.issuedAt),
    expires_at: utc(facts.expiresAt),
    valid: chain.ok && termsOk,
    logs_check_passed: chain.ok,
    revoked: facts.revoked,
    dispensed: facts.dispensed,
    ...(completion && { dispensed_at: completion.at, dispensed_by: completion.by }),
    locked: lock !== undefined,
    ...(lock && { locked_at: lock.at, locked_by: lock.actorName || lock.actor }),
    expired: facts.expired,
    medicaments: facts.medicaments.map((m) => ({
      id: m.id,
      prescribed: m.prescribed,
      dispensed: m.dispensed,
      remaining: Math.max(0, m.prescribed - m.dispensed),
      substitution_allowed: m.substitutionAllowed,
    })),
  };
}
