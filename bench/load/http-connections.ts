/**
 * Keep-alive HTTP/1.1 connections for the open-loop generator, one call at a time on each: a
 * request goes out as one prepared string in one write, and answers are framed by `http-parser-js`
 * (the parser autocannon uses for the closed-loop figures). Node's `http.request` costs about
 * 1.6 times as much CPU per call on the reference machine (its request and response objects,
 * streams and agent bookkeeping), and that CPU is taken from the two cores erx runs on
 * (docs/decisions.md, "The open-loop generator writes its calls on raw connections").
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { HTTPParser } from 'http-parser-js';

/** How a call ended: its status code, or what went wrong. */
export type Outcome = number | 'socket-error' | 'timeout';

/** One call: the request's bytes, and what to do with its outcome (called exactly once). */
export interface Call {
  readonly request: string;
  readonly dueAt: number;
  readonly done: (outcome: Outcome) => void;
}

/** The text of a request: request line, `host`, the headers, `content-length` and the body. */
export function requestText(
  target: URL,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): string {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${target.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

class Connection {
  readonly socket: Socket;
  readonly #parser = new HTTPParser(HTTPParser.RESPONSE);
  call: Call | undefined;
  #status = 0;
  #keepAlive = true;
  #established = false;
  /** The connection could not be established (erx is gone): it is not tried again. */
  refused = false;

  constructor(
    target: URL,
    onAnswered: (connection: Connection) => void,
    onLost: (connection: Connection) => void,
  ) {
    this.socket = connect(Number(target.port), target.hostname);
    this.socket.setNoDelay(true);
    this.socket.once('connect', () => (this.#established = true));
    this.#parser[HTTPParser.kOnHeadersComplete] = (info) => {
      this.#status = info.statusCode;
      this.#keepAlive = info.shouldKeepAlive;
    };
    this.#parser[HTTPParser.kOnMessageComplete] = () => {
      const call = this.call;
      this.call = undefined;
      call?.done(this.#status);
      if (this.#keepAlive) onAnswered(this);
      else this.socket.destroy();
    };
    this.socket.on('data', (chunk: Buffer) => {
      if (this.#parser.execute(chunk) instanceof Error) this.socket.destroy();
    });
    this.socket.on('error', () => {
      if (!this.#established) this.refused = true;
      this.socket.destroy();
    });
    this.socket.once('close', () => {
      const call = this.call;
      this.call = undefined;
      call?.done('socket-error');
      onLost(this);
    });
  }

  send(call: Call): void {
    this.call = call;
    this.socket.write(call.request);
  }
}

/**
 * `size` connections to `target`. A call is written at once on the connection idle longest, or
 * waits for the next one to become idle; a lost connection is replaced.
 *
 * Idle connections take turns (first in, first out). Taking the one idle shortest, as Node's agent
 * does by default, leaves most of them unused at a steady rate; erx closes a connection idle for
 * 5 s (its keep-alive timeout), and a replacement's first call then waits until erx, busy,
 * accepts the new connection: connections taken that way lost 963 connections in a 20 s mixed
 * run, and calls came seconds late.
 */
export class ConnectionPool {
  readonly #target: URL;
  readonly #idle: Connection[] = [];
  readonly #busy = new Set<Connection>();
  readonly #waiting: Call[] = [];
  #closed = false;

  constructor(target: URL, size: number) {
    this.#target = target;
    for (let i = 0; i < size; i++) this.#idle.push(this.#open());
  }

  /** Calls sent or waiting, not yet answered. */
  get outstanding(): number {
    return this.#busy.size + this.#waiting.length;
  }

  send(call: Call): void {
    const connection = this.#idle.shift();
    if (connection === undefined) {
      this.#waiting.push(call);
      return;
    }
    this.#busy.add(connection);
    connection.send(call);
  }

  /** Fails every call due at or before `deadline` (its connection is closed and replaced). */
  expire(deadline: number): void {
    while (this.#waiting.length > 0 && this.#waiting[0]!.dueAt <= deadline) {
      this.#waiting.shift()!.done('timeout');
    }
    for (const connection of this.#busy) {
      const call = connection.call;
      if (call === undefined || call.dueAt > deadline) continue;
      connection.call = undefined;
      call.done('timeout');
      connection.socket.destroy();
    }
  }

  close(): void {
    this.#closed = true;
    for (const connection of [...this.#idle, ...this.#busy]) connection.socket.destroy();
  }

  #open(): Connection {
    return new Connection(
      this.#target,
      (connection) => this.#answered(connection),
      (connection) => this.#lost(connection),
    );
  }

  #answered(connection: Connection): void {
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#busy.delete(connection);
      this.#idle.push(connection);
    } else {
      connection.send(next);
    }
  }

  #lost(connection: Connection): void {
    this.#busy.delete(connection);
    const index = this.#idle.indexOf(connection);
    if (index >= 0) this.#idle.splice(index, 1);
    // A connection erx closed (or a timeout did) is replaced; a refused one is not retried.
    if (this.#closed || connection.refused) return;
    const replacement = this.#open();
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#idle.push(replacement);
    } else {
      this.#busy.add(replacement);
      replacement.send(next);
    }
  }
}
