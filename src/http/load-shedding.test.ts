/**
 * The load shedding through Fastify's `inject()`. The signing bound: calls that sign are refused
 * with 503 and `Retry-After` in the error shape while the signing queue is full, before their
 * handler runs; other calls, and calls that sign once the queue drained, are served. The bound on
 * requests in progress: a request takes its place once its body has arrived, not while it
 * trickles in, and gives it back when it is answered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import type { SigningLoad } from '../pki/index.js';
import { installErrorHandlers } from './error-handler.js';
import {
  installLoadShedding,
  SHED_WARNING_MS,
  STANDING_QUEUE_HOLD_MS,
  STANDING_QUEUE_PER_THREAD,
} from './load-shedding.js';
import { TraceIds, traceFor } from './trace.js';

async function appWith(
  maxSigningQueue: number,
  load: { now: SigningLoad },
  clock: { ms: number } = { ms: 0 },
  logLines: string[] = [],
) {
  const stream = { write: (line: string) => logLines.push(line) };
  const app = Fastify({ logger: { level: 'warn', stream } });
  app.decorateRequest('trace', null as unknown as ReturnType<typeof traceFor>);
  app.addHook('onRequest', async (request) => {
    request.trace = traceFor(undefined, new TraceIds());
  });
  installErrorHandlers(app);
  installLoadShedding(
    app,
    { maxInFlight: 0, maxLagMs: 0, maxSigningQueue },
    () => load.now,
    () => clock.ms,
  );
  let handled = 0;
  app.post('/signs', { config: { signs: true } }, async () => ({ handled: ++handled }));
  app.post('/reads', async () => ({ handled: ++handled }));
  await app.ready();
  return { app, handled: () => handled };
}

describe('load shedding: the signing queue (ERX_MAX_SIGNING_QUEUE)', () => {
  it('refuses calls that sign while the queue holds the bound per thread, and only those', async () => {
    const load = { now: { waiting: 8, threads: 2 } };
    const { app, handled } = await appWith(4, load);
    const refused = await app.inject({ method: 'POST', url: '/signs' });
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '1');
    const body = refused.json() as Record<string, unknown>;
    assert.equal(body.error_code, 'service_unavailable');
    assert.deepEqual(Object.keys(body).sort(), ['cause', 'error_code', 'message', 'trace']);
    assert.equal(handled(), 0);
    assert.equal((await app.inject({ method: 'POST', url: '/reads' })).statusCode, 200);
    load.now = { waiting: 7, threads: 2 };
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 200);
    assert.equal(handled(), 2);
  });

  it('once the queue was full, bounds it at STANDING_QUEUE_PER_THREAD until it refused nothing for STANDING_QUEUE_HOLD_MS', async () => {
    const short = STANDING_QUEUE_PER_THREAD * 2;
    const load = { now: { waiting: short + 10, threads: 2 } };
    const clock = { ms: 0 };
    const { app, handled } = await appWith(32, load, clock);
    const signs = async () => (await app.inject({ method: 'POST', url: '/signs' })).statusCode;
    // As many clients as the queue holds, each waiting for its answer, never fill it: served.
    assert.equal(await signs(), 200, 'a queue below its bound takes calls however long');
    load.now = { waiting: 64, threads: 2 };
    assert.equal(await signs(), 503, 'full');
    clock.ms = 100;
    load.now = { waiting: short, threads: 2 };
    assert.equal(await signs(), 503, 'standing: bounded short');
    clock.ms = 100 + STANDING_QUEUE_HOLD_MS - 1;
    load.now = { waiting: short - 1, threads: 2 };
    assert.equal(await signs(), 200, 'below the short bound a standing queue still takes calls');
    load.now = { waiting: short + 10, threads: 2 };
    assert.equal(await signs(), 503, 'each refusal keeps it standing');
    clock.ms += STANDING_QUEUE_HOLD_MS;
    assert.equal(await signs(), 200, 'nothing refused for the hold: the full bound again');
    assert.equal(handled(), 3);
  });

  it('warns once per SHED_WARNING_MS, telling whether the signing queue stands', async () => {
    const load = { now: { waiting: 64, threads: 2 } };
    const clock = { ms: 0 };
    const lines: string[] = [];
    const { app } = await appWith(32, load, clock, lines);
    const signs = async () => (await app.inject({ method: 'POST', url: '/signs' })).statusCode;
    assert.equal(await signs(), 503);
    assert.equal(await signs(), 503);
    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(warnings.length, 1, 'the first refusal warns, even at once after the start');
    assert.equal(warnings[0]?.msg, 'overloaded: requests refused with 503');
    assert.equal(warnings[0]?.signaturesWaiting, 64);
    assert.equal(warnings[0]?.signingQueueStanding, true);
    clock.ms += SHED_WARNING_MS - 1;
    assert.equal(await signs(), 503);
    assert.equal(lines.length, 1, 'within SHED_WARNING_MS of the last warning');
    clock.ms += 1;
    assert.equal(await signs(), 503);
    assert.equal(lines.length, 2);
    // Every refusal since the last warning is counted in the next.
    assert.equal((JSON.parse(lines[1]!) as Record<string, unknown>).shed, 3);
  });

  it('keeps a configured bound below STANDING_QUEUE_PER_THREAD, before and after the queue was full', async () => {
    const load = { now: { waiting: 2, threads: 2 } };
    const { app } = await appWith(1, load);
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 503);
    load.now = { waiting: 1, threads: 2 };
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 200);
  });

  it('refuses nothing with the bound at 0', async () => {
    const { app } = await appWith(0, { now: { waiting: 1_000, threads: 1 } });
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 200);
  });
});

/** An app with the in-flight bound only; `/held` answers once `release()` is called. */
async function inFlightApp(maxInFlight: number) {
  const app = Fastify();
  app.decorateRequest('trace', null as unknown as ReturnType<typeof traceFor>);
  app.addHook('onRequest', async (request) => {
    request.trace = traceFor(undefined, new TraceIds());
  });
  installErrorHandlers(app);
  installLoadShedding(app, { maxInFlight, maxLagMs: 0, maxSigningQueue: 0 }, () => ({
    waiting: 0,
    threads: 1,
  }));
  let reading = (): void => undefined;
  let entered = (): void => undefined;
  let release = (): void => undefined;
  const readingBody = new Promise<void>((resolve) => (reading = resolve));
  const inHandler = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  // After every onRequest hook, before the body is read.
  app.addHook('preParsing', async (request) => {
    if (request.url === '/held') reading();
  });
  app.post('/held', async () => {
    entered();
    await released;
    return { held: true };
  });
  app.post('/reads', async () => ({ read: true }));
  app.post('/healthz', async () => ({ status: 'ok' }));
  await app.ready();
  return { app, readingBody, inHandler, release };
}

describe('load shedding: requests in progress (ERX_MAX_IN_FLIGHT)', () => {
  it('counts a request once its body has arrived, until it is answered', async () => {
    const { app, readingBody, inHandler, release } = await inFlightApp(1);
    const reads = async () => (await app.inject({ method: 'POST', url: '/reads' })).statusCode;
    const body = new PassThrough();
    const held = app.inject({
      method: 'POST',
      url: '/held',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    try {
      body.write('{"a"');
      await readingBody;
      assert.equal(await reads(), 200, 'a body still arriving holds no place');
      body.end(':1}');
      await inHandler;
      const refused = await app.inject({ method: 'POST', url: '/reads' });
      assert.equal(refused.statusCode, 503, 'a request in its handler holds the place');
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal((refused.json() as Record<string, unknown>).error_code, 'service_unavailable');
      assert.equal((await app.inject({ method: 'POST', url: '/healthz' })).statusCode, 200);
    } finally {
      if (!body.writableEnded) body.end(':1}');
      release();
    }
    assert.equal((await held).statusCode, 200);
    assert.equal(await reads(), 200, 'an answered request gave its place back');
  });

  it('refuses a request whose body arrived after the last place went', async () => {
    const { app, inHandler, release } = await inFlightApp(1);
    const body = new PassThrough();
    const late = app.inject({
      method: 'POST',
      url: '/reads',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    body.write('{"a"');
    const held = app.inject({ method: 'POST', url: '/held' });
    await inHandler;
    body.end(':1}');
    try {
      assert.equal((await late).statusCode, 503);
    } finally {
      release();
    }
    assert.equal((await held).statusCode, 200);
  });
});
