/** The monitor's log client: a log that answers nothing, or nothing in time, is `unreachable`. */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { httpLogClient } from './log-client.js';
import { MonitorError } from './monitor-error.js';

/**
 * A log whose checkpoint's body trickles in: its first line now, the rest once the test lets it go
 * (or after 30 s, so that a client without a time limit fails instead of hanging).
 */
let restSent = false;
let sendRest = (): void => undefined;
const trickling = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  response.write('erx.test/log\n');
  const guard = setTimeout(() => sendRest(), 30_000);
  sendRest = () => {
    clearTimeout(guard);
    restSent = true;
    if (!response.destroyed) response.end('1\nroot\n');
  };
});
await new Promise<void>((resolve) => trickling.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(trickling.address() as AddressInfo).port}`;
after(() => {
  trickling.closeAllConnections();
  trickling.close();
});

const isUnreachable = (error: unknown): boolean =>
  error instanceof MonitorError && error.reason === 'unreachable';

describe('the log client', () => {
  test('reports a body that trickles in past the time limit as unreachable, in time', async () => {
    try {
      await assert.rejects(httpLogClient(base, { timeoutMs: 200 }).checkpoint(), isUnreachable);
      assert.equal(restSent, false, 'waited for the rest of the body instead of its limit');
    } finally {
      sendRest();
    }
  });

  test('reports an answer other than 200 as unreachable', async () => {
    const missing = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => missing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(missing.address() as AddressInfo).port}`;
      await assert.rejects(httpLogClient(url, { timeoutMs: 1_000 }).key(), isUnreachable);
    } finally {
      missing.close();
    }
  });
});
