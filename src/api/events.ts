/** Events and dispensations as the verify answer and the mutating calls show them (seed §2.4–2.5). */
import Type from 'typebox';
import type { Static } from 'typebox';
import { EVENT_TYPES } from '../ledger/event.js';
import { DispenseItem } from './dispense.js';

const HASH = '64 hexadecimal characters (SHA-256).';
const UTC_TIME = 'Date-time, UTC with fractional seconds.';

/** Every event type (SPEC.md §7). */
export const EventType = Type.Enum(EVENT_TYPES, { $id: 'EventType', type: 'string' });
export type EventType = Static<typeof EventType>;

/** One event (seed §2.5, SPEC.md §7): the create event shows `prescription_hash` instead of the chain fields. */
export const EventView = Type.Object(
  {
    id: Type.String(),
    type: EventType,
    reference: Type.String({ description: 'The prescription id.' }),
    event_data: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: true,
      description: '`{}`; `{"EventId"}` on cancel; `{"reason"}` on lock and unlock when given.',
    }),
    dispenses: Type.Optional(
      Type.Array(DispenseItem, { description: 'On dispense events that carry items.' }),
    ),
    timestamp: Type.String({ description: UTC_TIME }),
    actor: Type.String(),
    actor_name: Type.String(),
    cancellable: Type.Boolean(),
    hash: Type.Optional(Type.String({ description: `${HASH} Absent on the create event.` })),
    parent_hash: Type.Optional(
      Type.String({ description: `${HASH} The preceding event's hash; absent on create.` }),
    ),
    signature: Type.Optional(
      Type.String({
        description: 'Compact JWS (ES384, x5c) over `hash`. Absent on the create event.',
      }),
    ),
    prescription_hash: Type.Optional(
      Type.String({ description: `${HASH} Of the link's CHMED16A1 string; create event only.` }),
    ),
  },
  {
    $id: 'EventView',
    description:
      'One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended.',
  },
);
export type EventView = Static<typeof EventView>;

/** A receipt (docs/transparency.md), as a mutating answer carries it. */
export const RECEIPT_DESCRIPTION =
  'The appended event’s receipt: a C2SP tlog-proof@v1 text (its `extra` line the event’s JWS, then its leaf index, the inclusion proof and the signed checkpoint that includes it), checkable offline with `erx receipt verify`. Absent when no checkpoint included the event within ERX_LOG_RECEIPT_WAIT.';

/** The answer of a call that appended an event: the event, and its receipt. */
export const EventAnswer = Type.Object(
  {
    ...EventView.properties,
    receipt: Type.Optional(Type.String({ description: RECEIPT_DESCRIPTION })),
  },
  {
    $id: 'EventAnswer',
    description:
      'The event a call appended (seed §2.5), with its receipt from the transparency log.',
  },
);
export type EventAnswer = Static<typeof EventAnswer>;

/** One non-cancelled dispensed item (seed §2.4); no substitute is `""` and `0`. */
export const PartialDispensation = Type.Object(
  {
    amount: Type.Number(),
    timestamp: Type.String({ description: UTC_TIME }),
    dispensed_by: Type.String({
      description:
        'The actor id of the pharmacy that dispensed (e.g. `HIN|pharma1`, as HIN answers).',
    }),
    medicine_id: Type.String(),
    substitute: Type.String(),
    substitute_id_type: Type.Integer({ description: 'As in DispenseItem; 0 without substitute.' }),
  },
  { $id: 'PartialDispensation' },
);
export type PartialDispensation = Static<typeof PartialDispensation>;
