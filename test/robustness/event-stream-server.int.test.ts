/**
 * Event streams and the HTTP server's own limits, on a real socket: a stream outlives the request
 * timeout (Node's `requestTimeout` covers receiving the request, not a long answer) and keeps
 * sending heartbeats; open streams hold no place among the requests in progress, so they cannot
 * make the load shedding refuse everyone; and closing the service ends its open streams instead
 * of waiting for them for good.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPrescription } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { openStream } from '../support/sse.js';
import type { SseStream } from '../support/sse.js';

const HEADERS_MS = 400;
const REQUEST_MS = 800;
const HEARTBEAT_MS = 250;
const MAX_IN_FLIGHT = 2;

describe('event streams and the server', () => {
  let server: TestServer;
  const held: SseStream[] = [];

  before(async () => {
    server = await startTestServer({
      env: { ERX_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT) },
      runtime: {
        timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS },
        feed: { streams: { heartbeatMs: HEARTBEAT_MS } },
      },
    });
  });

  after(async () => {
    for (const stream of held) stream.close();
    await server?.close();
  });

  async function open(): Promise<SseStream> {
    const stream = await openStream(server.url, { token: server.pharmacist.token });
    assert.equal(stream.status, 200, JSON.stringify(stream.json));
    held.push(stream);
    return stream;
  }

  it('keeps a stream past the request timeout, with heartbeats, and delivers on it', async () => {
    const stream = await open();
    // Heartbeats come from a timer, never early: this many span more than twice the request
    // timeout past the headers' (counted, not slept).
    const heartbeats = Math.floor((REQUEST_MS * 2 + HEADERS_MS) / HEARTBEAT_MS) + 1;
    await stream.until((s) => s.comments >= heartbeats || s.ended, 60_000);
    assert.equal(stream.ended, false);
    const rx = await createPrescription(server, roomyPrescription());
    const dispensed = await server.request('POST', `/ePrescription/dispense/${rx.id}`, {
      token: server.pharmacist.token,
      body: JSON.stringify([{ id: MED_A, amount: 1 }]),
      contentType: 'application/json',
    });
    assert.equal(dispensed.status, 200, dispensed.text);
    await stream.until((s) => s.of(rx.id).length === 1);
  });

  it('holds no place among the requests in progress with its streams', async () => {
    // One stream is open from the test before; more than the bound of requests in progress.
    for (let i = 0; i < MAX_IN_FLIGHT + 1; i++) await open();
    const feed = await server.request('GET', '/ePrescription/events', {
      token: server.doctor.token,
    });
    assert.equal(feed.status, 200, feed.text);
  });

  it('ends its open streams when it closes, instead of waiting for them', async () => {
    const streams = held.filter((s) => !s.ended);
    assert.ok(streams.length >= 1);
    // The streams' clients never hang up: closing ends only because erx ends the streams.
    await server.close();
    server = undefined as unknown as TestServer;
    await Promise.all(streams.map((s) => s.until((x) => x.ended)));
  });
});
