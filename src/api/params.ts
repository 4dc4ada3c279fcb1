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
 * character (U+0000–U+001F, U+007F–U+009F), TAB and line breaks included, and no bidirectional
 * control (U+202A–U+202E, U+2066–U+2069). Such text is one line shown to whoever reads the
 * history; NUL or ESC in a signed event would be kept for good and could rewrite a terminal or a
 * log line that shows it, and a bidi override would show it in another order than it was written.
 */
export const PLAIN_TEXT_PATTERN =
  '^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$';

/** The longest reason a caller may give, in characters. */
export const REASON_MAX_LENGTH = 500;

/**
 * The one reason schema: of a lock or unlock (in the query or the body) and of a forced dispense
 * (in the query), recorded in the event's `event_data.reason` (SPEC.md §7, §10).
 */
export const Reason = Type.String({
  maxLength: REASON_MAX_LENGTH,
  pattern: PLAIN_TEXT_PATTERN,
  description:
    'Why, as shown to whoever reads the history; recorded in `event_data.reason` (of a dispense, ' +
    'only with `force=true`). No control or bidirectional control characters.',
});
export type Reason = Static<typeof Reason>;

/** Lock and unlock: the reason recorded in the event's `event_data` (SPEC.md §7). */
export const ReasonQuery = Type.Object({ reason: Type.Optional(Reason) });
export type ReasonQuery = Static<typeof ReasonQuery>;

/** Lock and unlock: the reason as a JSON body instead of the query (SPEC.md §5). */
export const ReasonBody = Type.Object(
  { reason: Type.Optional(Reason) },
  {
    $id: 'ReasonBody',
    additionalProperties: false,
    description: 'The reason, as the query parameter `reason` carries it; send one or the other.',
  },
);
export type ReasonBody = Static<typeof ReasonBody>;
