/**
 * The CLI's service client follows the retry contract against a local server that answers as
 * scripted: 503 and 429 are retried after `Retry-After`, a connection closed before an answer after
 * a back-off, each attempt with the same `Idempotency-Key`; a 400 is sent once; past the bound the
 * last error is reported. Waits are recorded, not slept.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MAX_ATTEMPTS } from '../api/retry-contract.js';
import { loadConfig } from '../config/index.js';
import { isErxError } from '../errors.js';
import { callService } from './service-client.js';
import type { RetryTiming } from './service-client.js';

/** One scripted answer: a status with headers, or `close` (the socket ends with no answer). */
type Step = { status: number; headers?: Record<string, string> } | 'close';

const errorBody = (code: string) =>
  JSON.stringify({ error_code: code, message: code, trace: {}, cause: {} });

describe('CLI service client retries', () => {
  let script: Step[] = [];
  let keys: (string | undefined)[] = [];
  let url = '';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    keys.push(request.headers['idempotency-key'] as string | undefined);
    request.resume();
    request.on('end', () => {
      const step = script.shift() ?? { status: 200 };
      if (step === 'close') {
        request.socket.destroy();
        return;
      }
      const ok = step.status < 300;
      response.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      const code = step.status === 429 ? 'too_many_requests' : 'service_unavailable';
      response.end(
        ok ? '{"ok":true}' : step.status === 400 ? errorBody('bad_request') : errorBody(code),
      );
    });
  });

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Runs one dispense-like call with `steps` scripted; returns the waits it asked for. */
  async function run(steps: Step[], key: string | undefined = 'key-1') {
    script = [...steps];
    keys = [];
    const waits: number[] = [];
    const timing: RetryTiming = {
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
    };
    const config = loadConfig({ ERX_URL: url, ERX_TOKEN: 't' });
    const options = key === undefined ? { auth: true } : { auth: true, idempotencyKey: key };
    const result = callService(config, 'POST', '/ePrescription/dispense/x', options, timing);
    return { result, waits };
  }

  it('retries 503 after Retry-After with the same Idempotency-Key', async () => {
    const { result, waits } = await run([
      { status: 503, headers: { 'retry-after': '1' } },
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 200 },
    ]);
    assert.equal((await result).status, 200);
    assert.deepEqual(keys, ['key-1', 'key-1', 'key-1']);
    assert.deepEqual(waits, [1000, 0]);
  });

  it('retries 429 after Retry-After', async () => {
    const { result, waits } = await run([{ status: 429, headers: { 'retry-after': '2' } }]);
    assert.equal((await result).status, 200);
    assert.equal(keys.length, 2);
    assert.deepEqual(waits, [2000]);
  });

  it('sends a 400 once and reports it', async () => {
    const { result, waits } = await run([{ status: 400 }]);
    await assert.rejects(result, (e) => isErxError(e) && e.code === 'bad_request');
    assert.deepEqual(keys, ['key-1']);
    assert.deepEqual(waits, []);
  });

  it('retries a connection closed before an answer with the same key, after a back-off', async () => {
    const { result, waits } = await run(['close']);
    assert.equal((await result).status, 200);
    assert.deepEqual(keys, ['key-1', 'key-1']);
    assert.deepEqual(waits, [188]); // 250 ms with the jitter at 75 %
  });

  it('gives up after the bound and reports the last error with the key', async () => {
    const busy: Step = { status: 503, headers: { 'retry-after': '0' } };
    const { result } = await run(Array.from({ length: MAX_ATTEMPTS + 2 }, () => busy));
    await assert.rejects(
      result,
      (e) =>
        isErxError(e) &&
        e.code === 'service_unavailable' &&
        e.message.includes(`after ${MAX_ATTEMPTS} attempts`) &&
        e.message.includes('--idempotency-key key-1'),
    );
    assert.equal(keys.length, MAX_ATTEMPTS);
  });

  it('does not wait out a Retry-After past the cap', async () => {
    const { result, waits } = await run([{ status: 503, headers: { 'retry-after': '3600' } }]);
    await assert.rejects(result, (e) => isErxError(e) && e.code === 'service_unavailable');
    assert.equal(keys.length, 1);
    assert.deepEqual(waits, []);
  });

  it('retries a 500 once only', async () => {
    const { result } = await run([{ status: 500 }, { status: 500 }, { status: 200 }]);
    await assert.rejects(result, (e) => isErxError(e));
    assert.equal(keys.length, 2);
  });
});
