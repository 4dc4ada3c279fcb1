/**
 * The live event stream (`GET /ePrescription/events/stream`, Server-Sent Events) as an async
 * iterator of typed messages. A lost connection is opened again after a back-off with the last
 * `id` received as `Last-Event-ID`, so no event is missed or repeated; 429 and 503 wait
 * `Retry-After` as the retry contract says; any other refusal (401 when the token has expired
 * and no new one is given) ends the iteration with an error.
 */
import type { components } from './api-types.js';
import { backoffMs, retryAfterSeconds } from './retry.js';
import type { RetryTiming } from './retry.js';
import { SseParser } from './sse-parser.js';

type EventStreamMessage = components['schemas']['EventStreamMessage'];

/** Where the stream starts, and what ends it. */
export interface StreamOptions {
  /** Resume after this message `id` (a cursor); it takes precedence over `after`. */
  readonly lastEventId?: string;
  /** Start after this feed cursor; without either, with the events appended from now on. */
  readonly after?: string;
  /** Ends the stream. */
  readonly signal?: AbortSignal;
  /** Told when the connection was lost and how long until the next attempt. */
  readonly onReconnect?: (waitMs: number, why: string) => void;
}

/** What the stream needs from its client. */
export interface StreamClient {
  readonly baseUrl: string | URL;
  readonly fetch: typeof fetch;
  readonly timing: RetryTiming;
  readonly authorization: () => Promise<Record<string, string>>;
}

/** A refusal of the stream that waiting does not cure. */
export class StreamRefused extends Error {
  constructor(readonly status: number) {
    super(`the event stream was refused: HTTP ${status}`);
    this.name = 'StreamRefused';
  }
}

/** The stream's messages, resumed across lost connections until `o.signal` aborts. */
export async function* streamEvents(
  client: StreamClient,
  o: StreamOptions,
): AsyncGenerator<EventStreamMessage> {
  let lastId = o.lastEventId;
  let failures = 0;
  while (!o.signal?.aborted) {
    const connection = new AbortController();
    const stop = (): void => connection.abort();
    o.signal?.addEventListener('abort', stop, { once: true });
    let why = 'the stream ended';
    let waitMs: number | undefined;
    try {
      const url = new URL('/ePrescription/events/stream', client.baseUrl);
      if (lastId === undefined && o.after !== undefined) url.searchParams.set('after', o.after);
      const response = await client.fetch(url, {
        headers: {
          accept: 'text/event-stream',
          ...(await client.authorization()),
          ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
        },
        signal: connection.signal,
      });
      if (response.status === 429 || response.status === 503) {
        waitMs = retryAfterSeconds(response.headers.get('retry-after'), Date.now()) * 1000;
        why = `HTTP ${response.status}`;
      } else if (!response.ok || response.body === null) {
        throw new StreamRefused(response.status);
      } else {
        failures = 0;
        const parser = new SseParser();
        const decoder = new TextDecoder();
        const reader = response.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const message of parser.push(decoder.decode(value, { stream: true }))) {
            if (message.id === undefined || message.data === '') continue;
            lastId = message.id;
            yield { id: message.id, data: JSON.parse(message.data) as EventStreamMessage['data'] };
          }
        }
      }
    } catch (error) {
      if (error instanceof StreamRefused) throw error;
      if (o.signal?.aborted) return;
      why = error instanceof Error ? error.message : String(error);
    } finally {
      o.signal?.removeEventListener('abort', stop);
      connection.abort();
    }
    failures += 1;
    const wait = waitMs ?? backoffMs(Math.min(failures, 3), client.timing);
    o.onReconnect?.(wait, why);
    await client.timing.sleep(wait);
  }
}
