/**
 * The signing bound of the load shedding, through Fastify's `inject()`: calls that sign are
 * refused with 503 and `Retry-After` in the error shape while the signing queue is full, before
 * their handler runs; other calls, and calls that sign once the queue drained, are served.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { SigningLoad } from '../ledger/index.js';
import { installErrorHandlers } from './error-handler.js';
import {
  installLoadShedding,
  STANDING_QUEUE_MS,
  STANDING_QUEUE_PER_THREAD,
} from './load-shedding.js';
import { traceFor } from './trace.js';

async function appWith(maxSigningQueue: number, load: { now: SigningLoad }) {
  const app = Fastify();
  app.decorateRequest('trace', null as unknown as ReturnType<typeof traceFor>);
  app.addHook('onRequest', async (request) => {
    request.trace = traceFor(undefined);
  });
  installErrorHandlers(app);
  installLoadShedding(app, { maxInFlight: 0, maxLagMs: 0, maxSigningQueue }, () => load.now);
  let handled = 0;
  app.post('/signs', { config: { signs: true } }, async () => ({ handled: ++handled }));
  app.post('/reads', async () => ({ handled: ++handled }));
  await app.ready();
  return { app, handled: () => handled };
}

describe('load shedding: the signing queue (ERX_MAX_SIGNING_QUEUE)', () => {
  it('refuses calls that sign while the queue holds the bound per thread, and only those', async () => {
    const load = { now: { waiting: 8, threads: 2, busyMs: 0 } };
    const { app, handled } = await appWith(4, load);
    const refused = await app.inject({ method: 'POST', url: '/signs' });
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '1');
    const body = refused.json() as Record<string, unknown>;
    assert.equal(body.error_code, 'service_unavailable');
    assert.deepEqual(Object.keys(body).sort(), ['cause', 'error_code', 'message', 'trace']);
    assert.equal(handled(), 0);
    assert.equal((await app.inject({ method: 'POST', url: '/reads' })).statusCode, 200);
    load.now = { waiting: 7, threads: 2, busyMs: 0 };
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 200);
    assert.equal(handled(), 2);
  });

  it('while the queue stands (busy without a break for STANDING_QUEUE_MS), bounds it at STANDING_QUEUE_PER_THREAD', async () => {
    const burst = { waiting: STANDING_QUEUE_PER_THREAD * 2 + 10, threads: 2, busyMs: 0 };
    const load = { now: burst };
    const { app, handled } = await appWith(32, load);
    const signs = async () => (await app.inject({ method: 'POST', url: '/signs' })).statusCode;
    assert.equal(await signs(), 200, 'a burst may fill the queue to its full bound');
    load.now = { ...burst, busyMs: STANDING_QUEUE_MS - 1 };
    assert.equal(await signs(), 200);
    load.now = { ...burst, busyMs: STANDING_QUEUE_MS };
    assert.equal(await signs(), 503, 'a standing queue is bounded short');
    load.now = { waiting: STANDING_QUEUE_PER_THREAD * 2 - 1, threads: 2, busyMs: 10_000 };
    assert.equal(await signs(), 200, 'below the short bound, a standing queue still takes calls');
    load.now = { waiting: STANDING_QUEUE_PER_THREAD * 2, threads: 2, busyMs: 10_000 };
    assert.equal(await signs(), 503);
    assert.equal(handled(), 3);
  });

  it('keeps a configured bound below STANDING_QUEUE_PER_THREAD, standing or not', async () => {
    const load = { now: { waiting: 2, threads: 2, busyMs: 0 } };
    const { app } = await appWith(1, load);
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 503);
    load.now = { waiting: 1, threads: 2, busyMs: 60_000 };
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 200);
  });

  it('refuses nothing with the bound at 0', async () => {
    const { app } = await appWith(0, { now: { waiting: 1_000, threads: 1, busyMs: 60_000 } });
    assert.equal((await app.inject({ method: 'POST', url: '/signs' })).statusCode, 200);
  });
});
