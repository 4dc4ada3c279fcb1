/**
 * The checker of tokens issued elsewhere fails closed (SPEC.md §5): nothing listening, an answer
 * or a body later than its time limit, and every answer that is not a token's info are a 503.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HttpTokenChecker } from './http-token-checker.js';
import {
  ERX,
  GET_TOKEN_INFO,
  isUnavailable,
  json,
  startServer,
} from '../../test/support/token-provider.js';
import type { Handler, LocalServer } from '../../test/support/token-provider.js';

describe('HttpTokenChecker fails closed (SPEC.md §5)', () => {
  const servers: LocalServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  async function serve(handle: Handler): Promise<LocalServer> {
    const server = await startServer(handle);
    servers.push(server);
    return server;
  }

  /**
   * An answer held until the test lets it go (or 30 s pass, so that a checker without a time limit
   * fails instead of hanging): a check that rejects while it is held gave up at its own limit,
   * however slow the machine.
   */
  function heldAnswer(): {
    released: Promise<void>;
    isReleased: () => boolean;
    release: () => void;
  } {
    let letGo = (): void => undefined;
    let released = false;
    const promise = new Promise<void>((resolve) => (letGo = resolve));
    const guard = setTimeout(() => release(), 30_000);
    const release = (): void => {
      clearTimeout(guard);
      released = true;
      letGo();
    };
    return { released: promise, isReleased: () => released, release };
  }

  /** Answers the head and the start of a body, and its rest once `held` is released. */
  function trickling(held: { released: Promise<void> }): Handler {
    return async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"active":');
      await held.released;
      if (!response.destroyed) response.end('false}');
    };
  }

  function checkerFor(url: string, timeoutMs = 2000): HttpTokenChecker {
    return new HttpTokenChecker({ url, ...ERX, protocol: 'gettokeninfo', timeoutMs });
  }

  it('when nothing listens on the port', async () => {
    const gone = await startServer((_request, response) => json(response, 200, { active: false }));
    const url = gone.url(GET_TOKEN_INFO);
    await gone.close();
    await assert.rejects(checkerFor(url).check('t'), isUnavailable);
  });

  it('when the answer comes later than the time limit, within about that limit', async () => {
    const held = heldAnswer();
    const slow = await serve(async (_request, response) => {
      await held.released;
      if (!response.destroyed) json(response, 200, { active: false });
    });
    try {
      const started = performance.now();
      await assert.rejects(checkerFor(slow.url(GET_TOKEN_INFO), 200).check('t'), isUnavailable);
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 150, `gave up after ${elapsed} ms, before its limit`);
      assert.equal(held.isReleased(), false, 'waited for the answer instead of its limit');
    } finally {
      held.release();
    }
  });

  it('when the body trickles in past the time limit', async () => {
    const held = heldAnswer();
    const trickle = await serve(trickling(held));
    try {
      await assert.rejects(checkerFor(trickle.url(GET_TOKEN_INFO), 200).check('t'), isUnavailable);
      assert.equal(held.isReleased(), false, 'waited for the rest of the body');
    } finally {
      held.release();
    }
  });

  it('when the body trickles in past the time limit while garbage is collected', async () => {
    // Fetch reaches its request through a weak reference: collected, an abort alone did nothing.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = heldAnswer();
    const trickle = await serve(trickling(held));
    const collecting = setInterval(gc, 10);
    try {
      const checks = Array.from({ length: 5 }, () =>
        assert.rejects(checkerFor(trickle.url(GET_TOKEN_INFO), 200).check('t'), isUnavailable),
      );
      await Promise.all(checks);
      assert.equal(held.isReleased(), false, 'waited for the rest of the body');
    } finally {
      clearInterval(collecting);
      held.release();
    }
  });

  const answers: [string, Handler][] = [
    ['on status 500', (_q, r) => json(r, 500, { error: 'boom' })],
    ['on status 401', (_q, r) => json(r, 401, { error: 'invalid_client' })],
    ['on status 204', (_q, r) => r.writeHead(204).end()],
    ['on a 200 that is not JSON', (_q, r) => r.writeHead(200).end('<html>ok</html>')],
    ['on a 200 with an empty body', (_q, r) => r.writeHead(200).end()],
    ['on a 200 JSON array', (_q, r) => json(r, 200, [{ active: true }])],
    ['on a 200 JSON object without active', (_q, r) => json(r, 200, { sub: 'x' })],
    [
      'on an answer larger than 64 KiB',
      (_q, r) => json(r, 200, { active: false, pad: 'x'.repeat(70_000) }),
    ],
    ['on a redirect', (_q, r) => r.writeHead(302, { location: '/elsewhere' }).end()],
  ];
  for (const [label, handle] of answers) {
    it(label, async () => {
      const server = await serve(handle);
      await assert.rejects(checkerFor(server.url(GET_TOKEN_INFO)).check('t'), isUnavailable);
      assert.deepEqual(
        server.received.map((r) => r.path),
        [GET_TOKEN_INFO],
        'asked once, never followed anywhere',
      );
    });
  }
});
