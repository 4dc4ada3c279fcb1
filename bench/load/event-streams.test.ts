/**
 * The bench's event-stream clients: each holds its own connection, counts the messages with an
 * `id` even when a line arrives in two chunks, refuses to start when a stream is refused, and
 * closes every connection it opened.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openEventStreams } from './event-streams.js';

describe('bench event streams', () => {
  const open = new Set<ServerResponse>();
  let url = '';
  const server = createServer((request, response) => {
    if (request.headers.authorization === 'Bearer refused') {
      response.writeHead(429, { 'content-type': 'application/json' });
      response.end('{"error":"too_many_requests"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('retry: 1000\n\n: heartbeat\n\n');
    if (request.headers.authorization === 'Bearer sees') {
      // Messages split at every byte of an `id` line and its line break, and one whole.
      const text = 'id: f1.1\ndata: {}\n\nid: f1.2\ndata: {}\n\nid: f1.3\ndata: {}\n\n';
      const cuts = [0, 1, 2, 3, 18, 19, 20, 21, 22, text.length];
      cuts
        .slice(1)
        .forEach((cut, i) =>
          setTimeout(() => response.write(text.slice(cuts[i], cut)), 10 * (i + 1)),
        );
    }
    open.add(response);
    response.once('close', () => open.delete(response));
  });

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const until = async (condition: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(condition());
  };

  it('holds one connection per stream, counts its events however split, closes them all', async () => {
    const streams = await openEventStreams(url, ['Bearer sees', 'Bearer quiet', 'Bearer quiet']);
    assert.equal(open.size, 3);
    await until(() => streams.counts()[0]!.events === 3);
    const counts = streams.counts();
    assert.deepEqual(
      counts.map((c) => c.events),
      [3, 0, 0],
    );
    assert.ok(counts.every((c) => c.bytes > 0 && !c.endedByErx));
    await streams.close();
    await until(() => open.size === 0);
  });

  it('notices a stream the server ended', async () => {
    const streams = await openEventStreams(url, ['Bearer quiet']);
    for (const response of open) response.end();
    await until(() => streams.counts()[0]!.endedByErx);
    await streams.close();
  });

  it('fails when a stream is refused, leaving none open', async () => {
    await assert.rejects(
      openEventStreams(url, ['Bearer quiet', 'Bearer refused', 'Bearer quiet']),
      /event stream: 429/,
    );
    await until(() => open.size === 0);
  });
});
