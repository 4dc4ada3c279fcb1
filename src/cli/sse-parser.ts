/**
 * Server-Sent Events as the CLI reads `GET /ePrescription/events/stream` (WHATWG HTML "Parsing an
 * event stream"): lines end in CRLF, LF or CR; `data` lines of one message are joined with LF; a
 * blank line ends the message; comment lines (`:`), such as heartbeats, carry nothing but show the
 * connection lives. A message's `id` is the feed cursor to resume from (`Last-Event-ID`).
 */

/** One message of the stream. */
export interface SseMessage {
  /** The `id` field, if the message had one. */
  readonly id: string | undefined;
  /** The `event` field; `message` when absent. */
  readonly event: string;
  readonly data: string;
}

/** Parses an event stream fed in pieces of any size; keeps what it holds per instance. */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #id: string | undefined;
  /** A CR ended the last piece: an LF starting the next one belongs to it. */
  #pendingCr = false;

  /** The messages completed by `text`, the next piece of the stream. */
  push(text: string): SseMessage[] {
    let input = text;
    if (this.#pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.#pendingCr = false;
    this.#buffer += input;
    const out: SseMessage[] = [];
    for (;;) {
      const end = this.#buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      const line = this.#buffer.slice(0, end);
      let next = end + 1;
      if (this.#buffer[end] === '\r') {
        if (end + 1 === this.#buffer.length) this.#pendingCr = true;
        else if (this.#buffer[end + 1] === '\n') next = end + 2;
      }
      this.#buffer = this.#buffer.slice(next);
      const message = this.#line(line);
      if (message !== undefined) out.push(message);
    }
    return out;
  }

  /** Takes one line; a blank one completes the message, if it has data. */
  #line(line: string): SseMessage | undefined {
    if (line === '') {
      const data = this.#data;
      const event = this.#event;
      this.#data = [];
      this.#event = '';
      if (data.length === 0) return undefined;
      return { id: this.#id, event: event || 'message', data: data.join('\n') };
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    // An id with NUL is ignored (the standard's rule); the last id holds until another is sent.
    else if (field === 'id' && !value.includes('\u0000')) this.#id = value;
    return undefined;
  }
}
