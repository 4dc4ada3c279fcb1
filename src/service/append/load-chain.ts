/**
 * A prescription's chain read for a decision (SPEC.md §10, last point): the chain must pass every
 * check verify makes of it (bodies, hashes, links, signatures, head) and the row's copies must be
 * the signed terms of its create event, or no change is possible. The facts the rules decide from
 * are folded from that chain and those terms only.
 */
import { ErxError } from '../../errors.js';
import { parseEventShape } from '../../ledger/index.js';
import type { EventBody } from '../../ledger/index.js';
import type { ChainState, EventRow, PrescriptionRow } from '../../store/types.js';
import { chainFacts } from '../rules/chain-state.js';
import { checkChain, checkInLog } from '../verification/check-chain.js';
import type { ChainFacts } from '../rules/chain-state.js';
import type { ServiceDeps } from '../deps.js';
import { readTerms } from '../rules/terms.js';
import type { Terms } from '../rules/terms.js';

export interface LoadedChain {
  readonly prescription: PrescriptionRow;
  readonly rows: readonly EventRow[];
  readonly bodies: readonly EventBody[];
  /** Checked against their signature and the create event. */
  readonly terms: Terms;
  /** At the time of the decision. */
  readonly facts: ChainFacts;
}

export function corrupt(detail: Record<string, unknown>): ErxError {
  return new ErxError(
    'conflict',
    'The event log of this prescription fails its integrity check; no change is possible.',
    { causeCode: 'ledger_corrupt', detail },
  );
}

/** The body of a stored event; one that does not parse refuses the call. */
export function readBody(row: EventRow): EventBody {
  const parsed = parseEventShape(row.body);
  if (!parsed.ok) throw corrupt({ event: row.id, reason: parsed.reason });
  return parsed.body;
}

/**
 * Where the transparency log's check of a decision's chain is made: `here` with the other checks,
 * or `before` the prescription's lock was taken (an append: under the lock a PostgreSQL store
 * holds one of its connections, and the log's reads would need more).
 */
export type LogCheckAt = 'here' | 'before';

/** Checks the chain and its terms, and folds the facts at `deps.clock.now()`. */
export async function loadChain(
  deps: ServiceDeps,
  state: ChainState,
  logCheck: LogCheckAt,
): Promise<LoadedChain> {
  const { prescription } = state;
  const checked = (await checkChain(deps, state, 'decision')).chain;
  const chain = logCheck === 'here' ? await checkInLog(deps, state, checked) : checked;
  if (!chain.ok) {
    const event = chain.firstBadIndex === undefined ? undefined : state.events[chain.firstBadIndex];
    throw corrupt({ event: event?.id, check: chain.failedCheck, reason: chain.reason });
  }
  const terms = readTerms(prescription, chain.bodies[0]!, deps.terms, deps.prescriptionValidityMs);
  if (typeof terms === 'string') throw corrupt({ reason: terms });
  return {
    prescription,
    rows: state.events,
    bodies: chain.bodies,
    terms,
    facts: chainFacts(chain.bodies, terms, deps.clock.now()),
  };
}
