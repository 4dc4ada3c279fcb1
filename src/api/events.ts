/** Events and dispensations as the verify answer and the mutating calls show them (seed §2.4–2.5). */
import Type from 'typebox';
import type { Static } from 'typebox';
import { EVENT_TYPES, OVERRIDE_CODES } from '../ledger/event.js';
import { EVENT_KINDS } from '../ledger/event-kinds.js';
import type { EventDataShape } from '../ledger/event-kinds.js';
import { DispenseItem } from './dispense.js';
import { onTheWire } from './wire.js';

const HASH = '64 hexadecimal characters (SHA-256).';
const UTC_TIME = 'Date-time, UTC with fractional seconds.';

/** Every event type (SPEC.md §7). */
export const EventType = Type.Enum(EVENT_TYPES, { $id: 'EventType', type: 'string' });
export type EventType = Static<typeof EventType>;

/** The event types whose `event_data` has `shape`, for the schema's description. */
function kindsWith(shape: EventDataShape): string {
  const types = EVENT_TYPES.filter((type) => EVENT_KINDS[type].data === shape);
  return types.map((type) => `\`${type}\``).join(', ');
}

const dataReason = Type.String({ description: 'Why, as the caller gave it.' });

/** What `event_data` carries, one schema per shape of the kinds table (SPEC.md §7, §10). */
export const EVENT_DATA = {
  empty: Type.Object(
    {},
    {
      $id: 'EmptyEventData',
      additionalProperties: false,
      description: `\`event_data\` of ${kindsWith('empty')} events: always \`{}\`.`,
    },
  ),
  cancel: Type.Object(
    { EventId: Type.String({ description: 'The id of the event this cancel undoes.' }) },
    {
      $id: 'CancelEventData',
      additionalProperties: false,
      description: `\`event_data\` of ${kindsWith('cancel')} events.`,
    },
  ),
  lock: Type.Object(
    {
      reason: Type.Optional(dataReason),
      expires_at: Type.Optional(
        Type.String({ description: `When the lock lapses unless renewed. ${UTC_TIME}` }),
      ),
    },
    {
      $id: 'LockEventData',
      additionalProperties: false,
      description: `\`event_data\` of ${kindsWith('lock')} events.`,
    },
  ),
  unlock: Type.Object(
    { reason: Type.Optional(dataReason) },
    {
      $id: 'UnlockEventData',
      additionalProperties: false,
      description: `\`event_data\` of ${kindsWith('unlock')} events.`,
    },
  ),
  dispense: Type.Object(
    {
      force: Type.Optional(
        Type.Literal(true, { description: 'Present on a forced dispensation.' }),
      ),
      overrides: Type.Optional(
        Type.Array(Type.Enum(OVERRIDE_CODES, { type: 'string' }), {
          description: 'The refusals the forced dispensation overrode.',
        }),
      ),
      reason: Type.Optional(dataReason),
    },
    {
      $id: 'DispenseEventData',
      additionalProperties: false,
      description:
        `\`event_data\` of ${kindsWith('dispense')} events: \`{}\`, or on a forced one ` +
        '`force`, `overrides` and the `reason` if given.',
    },
  ),
} as const satisfies Record<EventDataShape, object>;

/** A receipt (docs/transparency.md), as a mutating answer carries it. */
export const RECEIPT_DESCRIPTION =
  'The appended event’s receipt: a C2SP tlog-proof@v1 text (its `extra` line the event’s JWS, then its leaf index, the inclusion proof and the signed checkpoint that includes it), checkable offline with `erx receipt verify`. Absent when no checkpoint included the event within ERX_LOG_RECEIPT_WAIT.';

/** One event (seed §2.5, SPEC.md §7): the create event shows `prescription_hash` instead of the chain fields. */
export const EventView = Type.Object(
  {
    id: Type.String(),
    type: EventType,
    reference: Type.String({ description: 'The prescription id.' }),
    // Sent as the stored object; the document names its shape per event kind.
    event_data: onTheWire(
      Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
      {
        anyOf: Object.values(EVENT_DATA),
        description: 'What the event records beyond its fields; its shape depends on `type`.',
      },
    ),
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
    receipt: Type.Optional(
      Type.String({
        description: `Only in the answer of the call that appended it. ${RECEIPT_DESCRIPTION}`,
      }),
    ),
  },
  {
    $id: 'EventView',
    description:
      'One event of a prescription’s log (seed §2.5); a call that changes a prescription answers the event it appended, with its `receipt`.',
  },
);
export type EventView = Static<typeof EventView>;

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
