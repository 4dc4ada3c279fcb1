/**
 * A PostgreSQL store whose server cannot answer: every method rejects with `service_unavailable`
 * and `Retry-After: 1` (SPEC.md §8) within one connect timeout, counted on a clock the test moves
 * (at once when the server refuses or hangs up), nothing hangs, nothing crashes. Needs no
 * PostgreSQL: the "servers" are a closed port and two local sockets that misbehave.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { after, before, describe, it, mock } from 'node:test';
import { isErxError } from '../../errors.js';
import { clientRow, newPrescription, tokenRow } from '../../../test/store-contract/fixture.js';
import type { Store } from '../types.js';
import { openPostgresStore } from './postgres-store.js';

/** Each method of the interface, called with plausible arguments. */
const CALLS: Record<string, (s: Store) => Promise<unknown>> = {
  migrate: (s) => s.migrate(),
  schemaVersion: (s) => s.schemaVersion(),
  ping: (s) => s.ping(),
  insertPrescription: (s) => {
    const p = newPrescription();
    return s.insertPrescription(p.row, p.create);
  },
  readChain: (s) => s.readChain('p'),
  holdChain: (s) => s.holdChain('p'),
  appendEvent: (s) => {
    const p = newPrescription();
    return s.appendEvent(p.create, 'head');
  },
  getEvent: (s) => s.getEvent('e'),
  'prescriptions.ids': (s) => s.prescriptions.ids(undefined, 10),
  'prescriptions.count': (s) => s.prescriptions.count(),
  'prescriptions.addTerms': (s) => s.prescriptions.addTerms('p', newPrescription().row.terms!),
  'idempotency.get': (s) => s.idempotency.get('a', 'k'),
  'idempotency.purge': (s) => s.idempotency.purge(0),
  'verifiedHeads.get': (s) => s.verifiedHeads.get('p'),
  'verifiedHeads.put': (s) =>
    s.verifiedHeads.put({ prescriptionId: 'p', headHash: 'h', seal: 's' }),
  'feed.sequence': (s) => s.feed.sequence(),
  'feed.head': (s) => s.feed.head(),
  'feed.read': (s) => s.feed.read({ role: 'pharmacist', sub: 'a' }, 0, 10, 10),
  'feed.readWindow': (s) => s.feed.readWindow(0, 10, 10),
  'feed.listIssued': (s) => s.feed.listIssued('a', undefined, 10),
  'clients.add': (s) => s.clients.add(clientRow('c')),
  'clients.get': (s) => s.clients.get('c'),
  'clients.list': (s) => s.clients.list(),
  'clients.remove': (s) => s.clients.remove('c'),
  'clients.setProfile': (s) => s.clients.setProfile('c', null),
  'clients.replaceSecretHash': (s) => s.clients.replaceSecretHash('c', 'a', 'b'),
  'clients.insertToken': (s) => s.clients.insertToken(tokenRow('t', 'c', 0)),
  'clients.getToken': (s) => s.clients.getToken('t'),
  'clients.purgeTokens': (s) => s.clients.purgeTokens(0),
};

async function listen(onSocket: (socket: Socket) => void): Promise<Server> {
  const server = createServer(onSocket);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

const CONNECT_TIMEOUT_MS = 300;
/** The pool's connections (the store's default). */
const POOL_SIZE = 10;

describe('postgres store without a reachable server', () => {
  const sockets = new Set<Socket>();
  /** The silent server's connections still open. */
  const openSockets = new Set<Socket>();
  let closedPort = 0;
  let silent: Server;
  let hangingUp: Server;

  before(async () => {
    const probe = await listen(() => undefined);
    closedPort = portOf(probe);
    probe.close();
    await once(probe, 'close');
    // Accepts and never answers the startup message: only the connect timeout ends the wait.
    silent = await listen((socket) => {
      sockets.add(socket);
      openSockets.add(socket);
      socket.once('close', () => openSockets.delete(socket));
    });
    // Accepts and hangs up at once, as a server going down does.
    hangingUp = await listen((socket) => socket.destroy());
  });

  after(() => {
    for (const s of sockets) s.destroy();
    silent.close();
    hangingUp.close();
  });

  /** Each server, and the connect timeouts its calls may wait (0: none, they fail at once). */
  const servers: [string, () => number, number][] = [
    ['a closed port', () => closedPort, 0],
    ['a server that never answers', () => portOf(silent), 1],
    ['a server that hangs up', () => portOf(hangingUp), 0],
  ];

  /** Resolves once `condition` holds, looking between turns of the event loop (no timer). */
  async function settles(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setImmediate(resolve));
  }

  for (const [label, port, ticks] of servers) {
    it(`rejects every method with service_unavailable within one connect timeout, on ${label}`, async () => {
      // The pool's timers run on a clock the test moves: "quickly" is counted in connect timeouts.
      mock.timers.enable({ apis: ['setTimeout'] });
      const poolErrors: Error[] = [];
      const store = openPostgresStore(`postgres://erx@127.0.0.1:${port()}/erx`, {
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        onPoolError: (e) => poolErrors.push(e),
      });
      try {
        // All at once: more calls than connections, so some also wait for the pool itself.
        const outcomes: unknown[] = [];
        const calls = Object.entries(CALLS).map(([method, call]) =>
          call(store).then(
            () => outcomes.push(new Error(`${method} resolved`)),
            (e: unknown) => outcomes.push(e),
          ),
        );
        const all = calls.length;
        if (ticks === 0) {
          await settles(() => outcomes.length === all);
        } else {
          // Every connection the pool opens has reached the server, which never answers.
          await settles(() => openSockets.size >= POOL_SIZE);
          assert.equal(outcomes.length, 0, 'a call settled before any timeout');
          mock.timers.tick(CONNECT_TIMEOUT_MS);
          await settles(() => outcomes.length === all);
        }
        await Promise.all(calls);
        for (const e of outcomes) {
          assert.ok(
            isErxError(e) && e.code === 'service_unavailable' && e.retryAfter === 1,
            String(e),
          );
        }
      } finally {
        mock.timers.reset();
        await store.close();
      }
      assert.deepEqual(poolErrors, []);
    });
  }

  it('answers service_unavailable after close instead of throwing a driver error', async () => {
    const store = openPostgresStore(`postgres://erx@127.0.0.1:${closedPort}/erx`);
    await store.close();
    await assert.rejects(
      store.ping(),
      (e: unknown) => isErxError(e) && e.code === 'service_unavailable',
    );
  });

  it('keeps the database error out of the client message', async () => {
    const store = openPostgresStore(`postgres://erx@127.0.0.1:${closedPort}/erx`);
    try {
      await assert.rejects(store.readChain('p'), (e: unknown) => {
        assert.ok(isErxError(e));
        assert.equal(e.message, 'The database is not available.');
        assert.match(JSON.stringify(e.detail), /ECONNREFUSED/);
        return true;
      });
    } finally {
      await store.close();
    }
  });
});
