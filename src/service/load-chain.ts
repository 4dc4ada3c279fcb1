/** A prescription's chain read for a decision: rows, parsed bodies and the facts folded from them. */
import { ErxError } from '../errors.js';
import { parseEventShape } from '../ledger/index.js';
import type { EventBody } from '../ledger/index.js';
import type { DecisionChain, DecisionEventRow, PrescriptionRow } from '../store/types.js';
import { chainFacts } from './chain-state.js';
import type { ChainFacts } from './chain-state.js';

export interface LoadedChain {
  readonly prescription: PrescriptionRow;
  readonly rows: readonly DecisionEventRow[];
  readonly bodies: readonly EventBody[];
  readonly facts: ChainFacts;
}

/** Parses every stored body; a chain whose bodies do not parse refuses further changes. */
export function loadChain(state: DecisionChain): LoadedChain {
  const bodies = state.events.map((row) => {
    const parsed = parseEventShape(row.body);
    if (!parsed.ok) {
      throw new ErxError(
        'conflict',
        'The event log of this prescription fails its integrity check; no change is possible.',
        { causeCode: 'ledger_corrupt', detail: { event: row.id, reason: parsed.reason } },
      );
    }
    return parsed.body;
  });
  return {
    prescription: state.prescription,
    rows: state.events,
    bodies,
    facts: chainFacts(bodies),
  };
}
