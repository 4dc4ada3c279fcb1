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

/** Lock and unlock: the reason recorded in the event's `event_data` (SPEC.md §7). */
export const ReasonQuery = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) });
export type ReasonQuery = Static<typeof ReasonQuery>;
