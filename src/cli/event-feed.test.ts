/**
 * `erx events` against a local server that answers as scripted: the feed is read page by page up
 * to where it stands; a follow resumes a lost stream with `Last-Event-ID` (the last cursor it told),
 * reconnects when the stream falls silent, waits out `Retry-After` on 429, polls the feed when the
 * service has no stream, gives up on a 401, and stops where it stands when interrupted.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../config/index.js';
import { isErxError } from '../errors.js';
import { follow, readToHead } from './event-feed.js';
import type { FeedItem, FeedReader, FollowTiming } from './event-feed.js';

const item = (n: number): FeedItem => ({
  cursor: `f1.${n}`,
  prescription_id: 'p',
  event: { id: `e${n}` },
});

/** What the scripted stream does on one connection. */
type StreamStep =
  | { status: number; headers?: Record<string, string> }
  | { events: number[]; then: 'close' | 'hang' };

const CODES: Record<number, string> = {
  401: 'unauthorized',
  404: 'not_found',
  429: 'too_many_requests',
};

const TIMING: FollowTiming = { idleMs: 300, pollMs: 20, reconnectMs: [10, 20] };

describe('erx events: feed pages and the followed stream', () => {
  /** Events 1..head exist; a page after n gives the next ones up to its limit. */
  let head = 0;
  let streamScript: StreamStep[] = [];
  let lastEventIds: (string | undefined)[] = [];
  let feedAfters: (string | null)[] = [];
  let url = '';
  const open = new Set<ServerResponse>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = new URL(request.url ?? '/', 'http://x');
    if (target.pathname === '/ePrescription/events') {
      const after = target.searchParams.get('after');
      feedAfters.push(after);
      const from = after === null ? 0 : Number(after.slice(3));
      const limit = Number(target.searchParams.get('limit'));
      const events = [];
      for (let n = from + 1; n <= head && events.length < limit; n += 1) events.push(item(n));
      const next = events.length === limit ? events.at(-1)!.cursor : `f1.${head}`;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ events, next }));
      return;
    }
    lastEventIds.push(request.headers['last-event-id'] as string | undefined);
    const step = streamScript.shift() ?? { status: 404 };
    if ('status' in step) {
      response.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      const code = CODES[step.status] ?? 'internal_error';
      response.end(JSON.stringify({ error_code: code, message: code, trace: {}, cause: {} }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(': hello\n\n');
    for (const n of step.events) {
      response.write(`id: f1.${n}\nevent: event\ndata: ${JSON.stringify(item(n))}\n\n`);
    }
    if (step.then === 'close') response.end();
    else open.add(response);
  });

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    for (const response of open) response.destroy();
    open.clear();
    lastEventIds = [];
    feedAfters = [];
  });

  function reader(cursor: string | undefined, limit?: number, signal?: AbortSignal) {
    const told: string[] = [];
    const waits: number[] = [];
    const r: FeedReader = {
      config: loadConfig({ ERX_URL: url, ERX_TOKEN: 't' }),
      signal: signal ?? new AbortController().signal,
      cursor,
      count: 0,
      limit,
      onEvent: (i) => told.push(i.cursor),
      onReconnect: (ms) => waits.push(ms),
    };
    return { r, told, waits };
  }

  it('reads pages up to the head and ends at the feed’s next', async () => {
    head = 250;
    const { r, told } = reader(undefined);
    await readToHead(r);
    assert.equal(told.length, 250);
    assert.equal(r.cursor, 'f1.250');
    assert.deepEqual(feedAfters, [null, 'f1.100', 'f1.200']);
  });

  it('stops at --limit, its cursor the last event told', async () => {
    head = 250;
    const { r, told } = reader('f1.10', 5);
    await readToHead(r);
    assert.deepEqual(told, ['f1.11', 'f1.12', 'f1.13', 'f1.14', 'f1.15']);
    assert.equal(r.cursor, 'f1.15');
  });

  it('resumes a lost stream with Last-Event-ID, and after a silent one', async () => {
    streamScript = [
      { events: [3, 4], then: 'close' },
      { events: [], then: 'hang' },
      { events: [5], then: 'hang' },
    ];
    const { r, told, waits } = reader('f1.2', 3);
    const started = Date.now();
    await follow(r, TIMING);
    assert.deepEqual(told, ['f1.3', 'f1.4', 'f1.5']);
    assert.deepEqual(lastEventIds, ['f1.2', 'f1.4', 'f1.4']);
    assert.equal(waits.length, 2);
    // The silent connection was given up after the idle time, not before.
    assert.ok(Date.now() - started >= TIMING.idleMs);
  });

  it('waits out Retry-After on 429 and gives up on 401', async () => {
    streamScript = [{ status: 429, headers: { 'retry-after': '0' } }, { status: 401 }];
    const { r, waits } = reader('f1.2');
    await assert.rejects(follow(r, TIMING), (e) => isErxError(e) && e.code === 'unauthorized');
    assert.deepEqual(waits, [0]);
    assert.equal(lastEventIds.length, 2);
  });

  it('polls the feed when the service has no stream', async () => {
    head = 2;
    streamScript = [{ status: 404 }];
    const { r, told } = reader('f1.2', 2);
    setTimeout(() => {
      head = 4;
    }, 50);
    await follow(r, TIMING);
    assert.deepEqual(told, ['f1.3', 'f1.4']);
    assert.equal(r.cursor, 'f1.4');
  });

  it('stops where it stands when interrupted', async () => {
    streamScript = [{ events: [7], then: 'hang' }];
    const stop = new AbortController();
    const { r, told } = reader('f1.6', undefined, stop.signal);
    const following = follow(r, TIMING);
    while (told.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort();
    await following;
    assert.equal(r.cursor, 'f1.7');
  });
});
