/**
 * A Server-Sent Events client for tests of the event stream: opens a stream over a real socket,
 * parses its messages as they come (WHATWG HTML §9.2.6, the parts erx sends: `id`, `data`,
 * `retry`, comments) and lets a test wait for a condition on what has arrived.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer } from './http.js';

/** One message: its `id` and its `data` parsed as JSON. */
export interface SseMessage {
  id: string | undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

/** An open (or refused) stream. */
export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** A refused stream's body, parsed (undefined for a 200). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  readonly messages: SseMessage[];
  /** Comment lines received (heartbeats). */
  readonly comments: number;
  /** The server ended the stream (or the connection broke). */
  readonly ended: boolean;
  /** Resolves once `condition` holds of what arrived; rejects after `ms` (default 30 s: a guard against a hang). */
  until(condition: (stream: SseStream) => boolean, ms?: number): Promise<void>;
  /** Messages whose `data` is a feed item of prescription `id`. */
  of(id: string): SseMessage[];
  close(): void;
}

export interface StreamOptions {
  token?: string;
  authorization?: string;
  lastEventId?: string;
  after?: string;
}

/** Opens `GET /ePrescription/events/stream` on the erx at `url`; resolves with its head. */
export function openStream(url: string, options: StreamOptions = {}): Promise<SseStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (options.token !== undefined) headers.authorization = `Bearer acs:${options.token}`;
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const query = options.after === undefined ? '' : `?after=${encodeURIComponent(options.after)}`;
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/ePrescription/events/stream${query}`, { headers });
    request.once('error', reject);
    request.once('response', (response) => {
      const messages: SseMessage[] = [];
      let comments = 0;
      let ended = false;
      let buffer = '';
      let body = '';
      const stream: SseStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        json: undefined,
        messages,
        get comments() {
          return comments;
        },
        get ended() {
          return ended;
        },
        until: (condition, ms = 30_000) =>
          new Promise((done, fail) => {
            if (condition(stream)) return done();
            const check = (): void => {
              if (!condition(stream)) return;
              clearTimeout(timer);
              changes.off('change', check);
              done();
            };
            const timer = setTimeout(() => {
              changes.off('change', check);
              fail(new Error(`stream condition not met in ${ms} ms (${messages.length} messages)`));
            }, ms);
            changes.on('change', check);
          }),
        of: (id) => messages.filter((m) => m.data?.prescription_id === id),
        close: () => request.destroy(),
      };
      response.setEncoding('utf8');
      const finish = (): void => {
        ended = true;
        changes.emit('change');
      };
      response.once('end', finish);
      response.once('close', finish);
      response.once('error', finish);
      request.off('error', reject);
      request.on('error', finish);
      if (stream.status !== 200) {
        response.on('data', (chunk: string) => (body += chunk));
        response.once('end', () => {
          try {
            stream.json = JSON.parse(body);
          } catch {
            stream.json = undefined;
          }
          resolve(stream);
        });
        return;
      }
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments++;
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) messages.push({ id, data: JSON.parse(data.join('\n')) });
        }
        changes.emit('change');
      });
      resolve(stream);
    });
  });
}

/** A refused stream as the other tests' {@link Answer}, for their assertions on errors. */
export function answerOf(stream: SseStream): Answer {
  const headers = new Headers();
  for (const [name, value] of Object.entries(stream.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  const text = JSON.stringify(stream.json);
  return { status: stream.status, headers, text, json: stream.json, bytes: Buffer.from(text) };
}
