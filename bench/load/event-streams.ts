/**
 * Event streams held open against erx while a figure runs (`streams-figure.ts`): one
 * `GET /ePrescription/events/stream` per token given, each on a connection of its own, read as
 * Server-Sent Events for as long as the figure runs. A stream counts the events it receives
 * (its `id:` lines, found in the bytes without decoding them) and nothing else: the bench process
 * shares the cores with erx, so the clients do as little as a client can.
 */
import { request } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';

const STREAM_PATH = '/ePrescription/events/stream';

/** What one stream received. */
export interface StreamCount {
  /** Events (messages with an `id`) received. */
  readonly events: number;
  /** Bytes received, heartbeats and the `retry` field included. */
  readonly bytes: number;
  /** Whether erx ended the stream before the bench closed it. */
  readonly endedByErx: boolean;
}

/** Streams held open; {@link close} ends them all. */
export interface OpenStreams {
  /** What each stream received so far, in the order of the tokens given. */
  counts(): StreamCount[];
  /** Closes every stream's connection and waits until each has closed. */
  close(): Promise<void>;
}

interface Held {
  readonly request: ClientRequest;
  response: IncomingMessage | undefined;
  events: number;
  bytes: number;
  endedByErx: boolean;
  closing: boolean;
  readonly closed: Promise<void>;
}

/** A message's `id` line: each message follows the blank line that ends the one before. */
const ID_LINE = Buffer.from('\nid:');

/**
 * Counts the `id:` lines of SSE bytes arriving in chunks, one may span two, without decoding
 * them: the stream's first line is its `retry` field, so every `id` line follows a line break.
 */
function idCounter(onIds: (n: number) => void): (chunk: Buffer) => void {
  const keep = ID_LINE.length - 1;
  let tail: Buffer = Buffer.alloc(0);
  const count = (bytes: Buffer): number => {
    let n = 0;
    for (let at = bytes.indexOf(ID_LINE); at >= 0; at = bytes.indexOf(ID_LINE, at + 1)) n++;
    return n;
  };
  return (chunk) => {
    // Too short to hold a whole line on either side, the seam holds only lines across it.
    const seam = Buffer.concat([tail, chunk.subarray(0, keep)]);
    onIds(count(seam) + count(chunk));
    const last = chunk.length >= keep ? chunk : Buffer.concat([tail, chunk]);
    tail = Buffer.from(last.subarray(Math.max(0, last.length - keep)));
  };
}

/** Opens one stream; resolves once erx answered 200, rejects on any other answer. */
function openOne(url: URL, authorization: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    let closedResolve: () => void = () => undefined;
    const closed = new Promise<void>((done) => (closedResolve = done));
    const req = request({
      host: url.hostname,
      port: url.port,
      path: STREAM_PATH,
      method: 'GET',
      // A connection of its own, as each client's would be.
      agent: false,
      headers: { authorization, accept: 'text/event-stream' },
    });
    const held: Held = {
      request: req,
      response: undefined,
      events: 0,
      bytes: 0,
      endedByErx: false,
      closing: false,
      closed,
    };
    req.once('close', closedResolve);
    req.once('error', (error) => {
      if (held.response === undefined) reject(error);
    });
    req.once('response', (response) => {
      if (response.statusCode !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.once('end', () =>
          reject(new Error(`event stream: ${response.statusCode} ${body.slice(0, 300)}`)),
        );
        return;
      }
      held.response = response;
      const count = idCounter((n) => (held.events += n));
      response.on('data', (chunk: Buffer) => {
        held.bytes += chunk.length;
        count(chunk);
      });
      response.once('close', () => {
        if (!held.closing) held.endedByErx = true;
      });
      // Errors after the answer (the socket destroyed by close) are the end of the stream.
      response.on('error', () => undefined);
      resolve(held);
    });
    req.end();
  });
}

/**
 * Opens a stream for each of `authorizations` against `baseUrl`, a few at a time; resolves once
 * every one has been answered 200 (erx has registered it), and rejects, closing those already
 * open, if any was refused.
 */
export async function openEventStreams(
  baseUrl: string,
  authorizations: readonly string[],
): Promise<OpenStreams> {
  const url = new URL(baseUrl);
  const held: Held[] = [];
  let next = 0;
  let failure: unknown;
  const lane = async (): Promise<void> => {
    while (next < authorizations.length && failure === undefined) {
      const at = next++;
      try {
        held[at] = await openOne(url, authorizations[at]!);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  const close = async (): Promise<void> => {
    const open = held.filter((h) => h !== undefined);
    for (const h of open) {
      h.closing = true;
      h.request.destroy();
    }
    await Promise.all(open.map((h) => h.closed));
  };
  // Every lane ends before any stream is closed, so none opened meanwhile is left open.
  await Promise.all(Array.from({ length: 8 }, lane));
  if (failure !== undefined) {
    await close();
    throw failure;
  }
  return {
    counts: () => held.map((h) => ({ events: h.events, bytes: h.bytes, endedByErx: h.endedByErx })),
    close,
  };
}
