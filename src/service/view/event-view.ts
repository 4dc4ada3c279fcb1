/**
 * Events and dispensations as the verify answer shows them (seed §2.4–2.5, SPEC.md §7): the
 * create event without `hash`, `parent_hash` and `signature` but with `prescription_hash`;
 * `cancellable` derived from the chain.
 */
import { EVENT_KINDS } from '../../ledger/index.js';
import type { EventBody, LedgerRecord } from '../../ledger/index.js';
import type { Cancels } from '../rules/cancel-chains.js';
import { isCancellable } from '../rules/chain-state.js';
import type { EventView, PartialDispensation } from '../types.js';

/** The seed §2.5 view of one event of a chain whose cancels did `cancels`. */
export function eventView(
  body: EventBody,
  record: LedgerRecord,
  cancels: Pick<Cancels, 'named'>,
): EventView {
  const view: EventView = {
    id: body.id,
    type: body.type,
    reference: body.reference,
    event_data: { ...body.event_data },
    timestamp: body.timestamp,
    actor: body.actor,
    actor_name: body.actor_name,
    cancellable: isCancellable(body, cancels.named),
  };
  if (body.dispenses !== undefined) view.dispenses = body.dispenses.map((d) => ({ ...d }));
  // The create event by the `prescription_hash` it starts from, every other by its place (seed §2.5).
  if (EVENT_KINDS[body.type].startsChain) {
    if (body.prescription_hash !== undefined) view.prescription_hash = body.prescription_hash;
  } else {
    view.hash = record.hash;
    if (body.parent_hash !== undefined) view.parent_hash = body.parent_hash;
    view.signature = record.signature;
  }
  return view;
}

/**
 * The non-cancelled dispensed items, flattened (seed §2.4). Absent substitute fields are answered
 * as `""` and `0` so every record has the same keys and types.
 */
export function partialDispensations(
  bodies: readonly EventBody[],
  cancels: Pick<Cancels, 'cancelled'>,
): PartialDispensation[] {
  const { cancelled } = cancels;
  const out: PartialDispensation[] = [];
  for (const body of bodies) {
    if (EVENT_KINDS[body.type].fold !== 'dispense_items' || cancelled.has(body.id)) continue;
    for (const item of body.dispenses ?? []) {
      out.push({
        amount: item.amount,
        timestamp: body.timestamp,
        dispensed_by: body.actor,
        medicine_id: item.id,
        substitute: item.substitute ?? '',
        substitute_id_type: item.substitute_id_type ?? 0,
      });
    }
  }
  return out;
}
