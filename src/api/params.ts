/** Path parameters and the query shared by several calls (SPEC.md §5). */
import Type from 'typebox';
import type { Static } from 'typebox';

const id = Type.String({ minLength: 1, maxLength: 100, description: 'The prescription id.' });

export const IdParams = Type.Object({ id });
export type IdParams = Static<typeof IdParams>;

export const EventParams = Type.Object({
  id,
  eventId: Type.String({ minLength: 1, maxLength: 100 }),
});
export type EventParams = Static<typeof EventParams>;

/**
 * Free text a caller has written into a signed event (a reason, a substitute): no C0 or C1 control
 * character (U+0000–U+001F, U+007F–U+009F), TAB and line breaks included. Such text is one line
 * shown to whoever reads the history; NUL or ESC in a signed event would be kept for good and
 * could rewrite a terminal or a log line that shows it.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

const reason = Type.String({
  maxLength: 500,
  pattern: PLAIN_TEXT_PATTERN,
  description:
    'Why, as shown to whoever reads the history; recorded in `event_data.reason`. No control ' +
    'characters.',
});

/** Lock and unlock: the reason recorded in the event's `event_data` (SPEC.md §7). */
export const ReasonQuery = Type.Object({ reason: Type.Optional(reason) });
export type ReasonQuery = Static<typeof ReasonQuery>;

/** Lock and unlock: the reason as a JSON body instead of the query (SPEC.md §5). */
export const ReasonBody = Type.Object(
  { reason: Type.Optional(reason) },
  {
    $id: 'ReasonBody',
    additionalProperties: false,
    description: 'The reason, as the query parameter `reason` carries it; send one or the other.',
  },
);
export type ReasonBody = Static<typeof ReasonBody>;

/** The reason as a dispense query parameter: recorded only with `force=true` (SPEC.md §10). */
export const dispenseReason = Type.Optional(
  Type.String({
    maxLength: 500,
    pattern: PLAIN_TEXT_PATTERN,
    description:
      'With `force=true`: why, recorded in `event_data.reason` of the forced event. No control ' +
      'characters.',
  }),
);
