/**
 * The shipped client (`erx/client`) against a running erx: the integration of the generated-SDK
 * suite (create, a pharmacist's verify with transactions, an idempotent dispense retried, the
 * feed); the retry contract (a 503 waits `Retry-After` and retries with the same
 * `Idempotency-Key`; a 4xx is not retried); the event stream resumed with `Last-Event-ID`, by
 * hand and after a lost connection, missing and repeating nothing; and the package layout that
 * publishes it (`exports["./client"]` with its types).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ErxClientError, createErxClient } from '../../client/index.js';
import type { ErxClient, EventStreamMessage, Prescription } from '../../client/index.js';
import type { RetryTiming } from '../../client/retry.js';
import { samplePrescription } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

type FetchInput = Parameters<typeof fetch>[0];

/** Retries without waiting, the waits they asked for written down. */
function noWaiting(): RetryTiming & { waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms), random: () => 0.5 };
}

/** A fetch that records each request's headers and may answer some itself. */
function recordingFetch(answer?: (url: URL, n: number) => Response | undefined) {
  const seen: { url: URL; headers: Headers }[] = [];
  const fetchFn = (async (input: FetchInput, init?: RequestInit) => {
    const url = new URL(String(input));
    seen.push({ url, headers: new Headers(init?.headers) });
    return answer?.(url, seen.length) ?? fetch(input, init);
  }) as typeof fetch;
  return { seen, fetchFn };
}

describe('the shipped client, erx/client', () => {
  let server: TestServer;
  let doctor: ErxClient;
  let pharmacy: ErxClient;

  before(async () => {
    server = await startTestServer();
    doctor = createErxClient({ baseUrl: server.url, token: server.doctor.token });
    pharmacy = createErxClient({ baseUrl: server.url, token: () => server.pharmacist.token });
  });
  after(() => server?.close());

  const newPrescription = () => samplePrescription() as unknown as Prescription;

  it('creates, verifies as a pharmacist with transactions, dispenses once under a retried key, and reads the feed', async () => {
    const created = await doctor.createPrescription(newPrescription());
    const first = await pharmacy.dispensePrescription(created.prescription_id, undefined, {
      idempotencyKey: 'client-flow-1',
    });
    const again = await pharmacy.dispensePrescription(created.prescription_id, undefined, {
      idempotencyKey: 'client-flow-1',
    });
    assert.equal(again.id, first.id, 'the retry answers the first call');
    const verified = await pharmacy.verifyPrescription(created.SignedPrescriptionData);
    assert.ok('tampering_detection_result' in verified, 'the variant with transactions');
    assert.deepEqual(
      verified.events.map((e) => e.type),
      ['create', 'full_dispense'],
    );
    const anonymous = createErxClient({ baseUrl: server.url });
    const short = await anonymous.verifyPrescription(created.SignedPrescriptionData);
    assert.equal('tampering_detection_result' in short, false, 'without a token, the short one');
    const page = await pharmacy.listEvents({ limit: 500 });
    assert.ok(page.events.some((item) => item.event.id === first.id));
  });

  it('waits Retry-After on a 503 and retries with the same Idempotency-Key; a 4xx is not retried', async () => {
    const created = await doctor.createPrescription(newPrescription());
    const { seen, fetchFn } = recordingFetch((_url, n) =>
      n === 1 ? new Response('{}', { status: 503, headers: { 'retry-after': '2' } }) : undefined,
    );
    const timing = noWaiting();
    const client = createErxClient({
      baseUrl: server.url,
      token: server.pharmacist.token,
      fetch: fetchFn,
      timing,
    });
    const event = await client.lockPrescription(created.prescription_id, { reason: 'Beratung' });
    assert.equal(event.type, 'lock');
    assert.equal(seen.length, 2);
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    assert.ok(keys[0] !== null && keys[0] === keys[1], 'one key across the retries');
    assert.deepEqual(timing.waits, [2000]);

    const refused = await client.dispensePrescription('no-such-prescription').then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof ErxClientError);
    assert.equal(refused.status, 404);
    assert.equal(refused.attempts, 1);
    assert.equal(refused.body?.error_code, 'not_found');
  });

  /** Appends `n` events the pharmacist sees: dispensations of new prescriptions. */
  async function appendEvents(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const created = await doctor.createPrescription(newPrescription());
      ids.push((await pharmacy.dispensePrescription(created.prescription_id)).id);
    }
    return ids;
  }

  /** The next `n` messages of `stream`, the stream left open. */
  async function take(stream: AsyncGenerator<EventStreamMessage>, n: number) {
    const out: EventStreamMessage[] = [];
    while (out.length < n) {
      const next = await stream.next();
      if (next.done) break;
      out.push(next.value);
    }
    return out;
  }

  it('resumes the stream by hand after the last message read, missing and repeating nothing', async () => {
    const [start] = await appendEvents(1);
    const page = await pharmacy.listEvents({ limit: 500 });
    const cursor = page.events.find((item) => item.event.id === start)?.cursor;
    assert.ok(cursor);
    const stream = pharmacy.streamEvents({ after: cursor });
    const ids = await appendEvents(3);
    const [one] = await take(stream, 1);
    await stream.return(undefined);
    assert.equal(one?.data.event.id, ids[0]);
    const resumed = pharmacy.streamEvents({ lastEventId: one?.id });
    const rest = await take(resumed, 2);
    await resumed.return(undefined);
    assert.deepEqual(
      rest.map((m) => m.data.event.id),
      ids.slice(1),
    );
  });

  it('reconnects by itself with Last-Event-ID when the connection is lost', async () => {
    const [start] = await appendEvents(1);
    const page = await pharmacy.listEvents({ limit: 500 });
    const cursor = page.events.find((item) => item.event.id === start)?.cursor;
    const ids = await appendEvents(2);
    // The first connection is cut after its first message (a proxy's reset, say).
    let connections = 0;
    const cutting = (async (input: FetchInput, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/events/stream') || ++connections > 1) return response;
      // Everything up to the end of the first message that carries data, then a reset.
      const reader = response.body!.getReader();
      let text = '';
      let end = -1;
      while (end < 0) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        const data = text.indexOf('data:');
        end = data < 0 ? -1 : text.indexOf('\n\n', data);
      }
      await reader.cancel();
      // A stream's error drops what it still holds: the message is read first, then the reset.
      let delivered = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (delivered) return controller.error(new Error('connection reset'));
          delivered = true;
          controller.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    }) as typeof fetch;
    const recorder = recordingFetch();
    const reconnects: string[] = [];
    const client = createErxClient({
      baseUrl: server.url,
      token: server.pharmacist.token,
      fetch: ((input: FetchInput, init?: RequestInit) => {
        void recorder.fetchFn;
        recorder.seen.push({ url: new URL(String(input)), headers: new Headers(init?.headers) });
        return cutting(input, init);
      }) as typeof fetch,
      timing: noWaiting(),
    });
    const stream = client.streamEvents({
      after: cursor,
      onReconnect: (_ms, why) => reconnects.push(why),
    });
    const got = await take(stream, 2);
    await stream.return(undefined);
    assert.deepEqual(
      got.map((m) => m.data.event.id),
      ids,
    );
    assert.equal(reconnects.length, 1);
    const second = recorder.seen.filter((s) => s.url.pathname.endsWith('/events/stream'))[1];
    assert.equal(second?.headers.get('last-event-id'), got[0]?.id);
  });

  it('is published as erx/client with its types and without test files', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
      files: string[];
    };
    assert.deepEqual(manifest.exports['./client'], {
      types: './dist/client/index.d.ts',
      import: './dist/client/index.js',
    });
    assert.ok(manifest.files.includes('dist'));
    const resolved = fileURLToPath(import.meta.resolve('erx/client'));
    assert.ok(resolved.endsWith('/dist/client/index.js'), resolved);
    // Built by `npm run build` (also on `npm ci`); the test suite runs after it.
    assert.ok(existsSync(resolved), 'built');
    assert.ok(existsSync(resolved.replace(/\.js$/, '.d.ts')), 'with its types');
  });
});
