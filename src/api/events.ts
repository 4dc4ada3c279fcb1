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

/** One non-cancelled dispensed item (seed §2.4); no substitute is `""` and `0`. */
export const PartialDispensation = Type.Object(
  {
    amount: Type.Number(),
    timestamp: Type.String({ description: UTC_TIME }),
    dispensed_by: Type.String({ description: 'Actor name (may be empty).' }),
    medicine_id: Type.String(),
    substitute: Type.String(),
    substitute_id_type: Type.Integer({ description: 'As in DispenseItem; 0 without substitute.' }),
  },
  { $id: 'PartialDispensation' },
);
export type PartialDispensation = Static<typeof PartialDispensation>;
