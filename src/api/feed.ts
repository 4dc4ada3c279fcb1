/**
 * The event feed and its live stream (`GET /ePrescription/events`, `…/events/stream`): the events
 * a caller may see, in commit order, each beside the cursor to resume after it.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { EventView } from './events.js';
import { onTheWire } from './wire.js';

/** The smallest, default and largest page of the feed. */
export const FEED_PAGE = { min: 1, default: 100, max: 500 } as const;

const cursor = (description: string): ReturnType<typeof Type.String> =>
  Type.String({ minLength: 1, maxLength: 20, description });

/** The feed's query: where to start and how many events at most. */
export const FeedQuery = Type.Object(
  {
    after: Type.Optional(
      cursor(
        'Start after this cursor (an event’s `cursor` or a page’s `next`, as answered); ' +
          'without it, from the first event.',
      ),
    ),
    limit: Type.Optional(
      onTheWire(
        Type.String({
          pattern: '^(500|[1-4][0-9]{2}|[1-9][0-9]?)$',
          description: `At most this many events, ${FEED_PAGE.min} to ${FEED_PAGE.max} (default ${FEED_PAGE.default}).`,
        }),
        { type: 'integer', minimum: FEED_PAGE.min, maximum: FEED_PAGE.max },
      ),
    ),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

/** The stream's query: where to start when no `Last-Event-ID` is sent. */
export const StreamQuery = Type.Object(
  {
    after: Type.Optional(
      cursor(
        'Start after this cursor when no `Last-Event-ID` header is sent; without either, ' +
          'with the events appended from now on.',
      ),
    ),
  },
  { additionalProperties: false },
);
export type StreamQuery = Static<typeof StreamQuery>;

/** One event of the feed. */
export const FeedItem = Type.Object(
  {
    cursor: Type.String({
      description:
        'Opaque; names this event’s place in the feed. Reading after it gives the events after it.',
    }),
    prescription_id: Type.String(),
    event: EventView,
  },
  {
    $id: 'FeedItem',
    description:
      'An event as verify shows it (seed §2.5), served only when its signature verifies (verify ' +
      'checks whole chains). On the stream, each message’s `data` is one of these and its `id` ' +
      'the `cursor`.',
  },
);
export type FeedItem = Static<typeof FeedItem>;

/** A page of the feed. */
export const FeedPage = Type.Object(
  {
    events: Type.Array(FeedItem, { description: 'In commit order, at most `limit`.' }),
    next: Type.String({
      description:
        'Store it and read after it next time: every event up to it has been answered, ' +
        'also when `events` is empty. A full page may be followed by more at once.',
    }),
  },
  {
    $id: 'FeedPage',
    description:
      'The events the caller may see after `after`: a prescriber every event of the ' +
      'prescriptions it issued; a pharmacist its own events and the dispense, lock, unlock, ' +
      'cancel and revoke events of others on prescriptions it had acted on before.',
  },
);
export type FeedPage = Static<typeof FeedPage>;

/** The stream's answer: Server-Sent Events, one message per event. */
export const EventStream = Type.String({
  $id: 'EventStream',
  contentMediaType: 'text/event-stream',
  description:
    'Server-Sent Events: `retry: <ms>` first, then one message per event, `id: <cursor>` and ' +
    '`data: <FeedItem as JSON>`; lines starting with `:` are heartbeats.',
});

/** One message of the event stream, as a typed reader hands it on (`EventStream`'s items). */
export const EventStreamMessage = Type.Object(
  {
    id: Type.String({ description: 'The event’s cursor: send it as `Last-Event-ID` to resume.' }),
    data: FeedItem,
  },
  {
    $id: 'EventStreamMessage',
    description:
      'One Server-Sent Events message of the stream: its `id` line and its `data` line parsed ' +
      'as JSON.',
  },
);
export type EventStreamMessage = Static<typeof EventStreamMessage>;
