/**
 * Server-Sent Events as erx's client and CLI read `GET /ePrescription/events/stream` (WHATWG HTML "Parsing an
 * event stream"), parsed by the `eventsource-parser` package: lines end in CRLF, LF or CR; `data`
 * lines of one message are joined with LF; a blank line ends the message; comment lines (`:`),
 * such as heartbeats, carry nothing. A message's `id` is the feed cursor to resume from
 * (`Last-Event-ID`); like the standard's last event id, it holds until another is sent.
 */
import { createParser } from 'eventsource-parser';
import type { EventSourceParser } from 'eventsource-parser';

/** One message of the stream. */
export interface SseMessage {
  /** The `id` field, if the message or one before it had one. */
  readonly id: string | undefined;
  /** The `event` field; `message` when absent. */
  readonly event: string;
  readonly data: string;
}

/** Parses an event stream fed in pieces of any size; keeps what it holds per instance. */
export class SseParser {
  #lastId: string | undefined;
  #completed: SseMessage[] = [];
  readonly #parser: EventSourceParser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) this.#lastId = message.id;
      this.#completed.push({
        id: this.#lastId,
        event: message.event ?? 'message',
        data: message.data,
      });
    },
  });

  /** The messages completed by `text`, the next piece of the stream. */
  push(text: string): SseMessage[] {
    this.#parser.feed(text);
    const out = this.#completed;
    this.#completed = [];
    return out;
  }
}
