/**
 * A PostgreSQL store whose server cannot answer: every method rejects quickly with
 * `service_unavailable` and `Retry-After: 1` (SPEC.md §8), nothing hangs, nothing crashes. Needs no
 * PostgreSQL: the "servers" are a closed port and two local sockets that misbehave.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
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
  getPrescription: (s) => s.getPrescription('p'),
  getEvents: (s) => s.getEvents('p'),
  getChain: (s) => s.getChain('p'),
  appendEvent: (s) =>
    s.appendEvent('p', async () => {
      throw new Error('decide must not run without the chain');
    }),
  listPrescriptionIds: (s) => s.listPrescriptionIds(undefined, 10),
  countPrescriptions: (s) => s.countPrescriptions(),
  getIdempotency: (s) => s.getIdempotency('a', 'k'),
  getEvent: (s) => s.getEvent('e'),
  purgeIdempotency: (s) => s.purgeIdempotency(0),
  addClient: (s) => s.addClient(clientRow('c')),
  getClient: (s) => s.getClient('c'),
  listClients: (s) => s.listClients(),
  removeClient: (s) => s.removeClient('c'),
  setClientProfile: (s) => s.setClientProfile('c', null),
  insertToken: (s) => s.insertToken(tokenRow('t', 'c', 0)),
  getToken: (s) => s.getToken('t'),
  purgeTokens: (s) => s.purgeTokens(0),
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

describe('postgres store without a reachable server', () => {
  const sockets = new Set<Socket>();
  let closedPort = 0;
  let silent: Server;
  let hangingUp: Server;

  before(async () => {
    const probe = await listen(() => undefined);
    closedPort = portOf(probe);
    probe.close();
    await once(probe, 'close');
    // Accepts and never answers the startup message: only the connect timeout ends the wait.
    silent = await listen((socket) => sockets.add(socket));
    // Accepts and hangs up at once, as a server going down does.
    hangingUp = await listen((socket) => socket.destroy());
  });

  after(() => {
    for (const s of sockets) s.destroy();
    silent.close();
    hangingUp.close();
  });

  const servers: [string, () => number][] = [
    ['a closed port', () => closedPort],
    ['a server that never answers', () => portOf(silent)],
    ['a server that hangs up', () => portOf(hangingUp)],
  ];

  for (const [label, port] of servers) {
    it(`rejects every method with service_unavailable, quickly, on ${label}`, async () => {
      const poolErrors: Error[] = [];
      const store = openPostgresStore(`postgres://erx@127.0.0.1:${port()}/erx`, {
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        onPoolError: (e) => poolErrors.push(e),
      });
      try {
        // All at once: more calls than connections, so some also wait for the pool itself.
        const started = performance.now();
        await Promise.all(
          Object.entries(CALLS).map(([method, call]) =>
            assert.rejects(
              call(store),
              (e: unknown) =>
                isErxError(e) && e.code === 'service_unavailable' && e.retryAfter === 1,
              method,
            ),
          ),
        );
        const elapsed = performance.now() - started;
        assert.ok(elapsed < CONNECT_TIMEOUT_MS + 1_000, `took ${elapsed} ms`);
      } finally {
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
      await assert.rejects(store.getChain('p'), (e: unknown) => {
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
