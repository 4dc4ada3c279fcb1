/**
 * At most `maxConnectionsPerAddress` open connections per client address (OWASP API4; SPEC.md
 * §9). Each connection can hold a request whose headers or body trickle in until the request
 * timeout, and a socket, a parser and a buffered body while it does: without a bound one address
 * could open as many as the machine allows and leave none for anyone else. A connection past the
 * bound is closed as soon as it is accepted, before a byte of it is read: refusing it must cost
 * far less than the connection would. Its client sees the connection reset, as when a server is
 * full; no answer is written, since that would mean reading and parsing its request first.
 *
 * Connections from the addresses of `trustProxy` are not counted: a proxy or load balancer
 * carries many clients over its connections, and bounds each of them itself.
 */
import { BlockList, isIPv4 } from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

export interface ConnectionBound {
  /** Connections one address may hold open at once; 0 = no bound. */
  readonly maxConnectionsPerAddress: number;
  /** Addresses or CIDRs (as the configuration checked them) whose connections are not counted. */
  readonly trustProxy: readonly string[];
}

/** At most one warning about refused connections per this many ms. */
export const REFUSED_WARNING_MS = 10_000;

const MAPPED_V4 = '::ffff:';

/** The address a socket came from, an IPv4 client of an IPv6 listener written as IPv4. */
function clientAddress(socket: Socket): string | undefined {
  const address = socket.remoteAddress;
  if (address?.startsWith(MAPPED_V4) && isIPv4(address.slice(MAPPED_V4.length))) {
    return address.slice(MAPPED_V4.length);
  }
  return address;
}

function family(address: string): 'ipv4' | 'ipv6' {
  return isIPv4(address) ? 'ipv4' : 'ipv6';
}

/** The addresses and networks of `entries` (`a.b.c.d`, an IPv6 address, or either with `/n`). */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    if (prefix === undefined) list.addAddress(address, family(address));
    else list.addSubnet(address, Number(prefix), family(address));
  }
  return list;
}

/**
 * Installs the bound on the connections of `app`'s server; a bound of 0 is not installed.
 * Refused connections are counted in `erx_connections_refused_total` of `registry`, and warned
 * about at most once per {@link REFUSED_WARNING_MS}, naming the last address refused.
 */
export function installConnectionLimit(
  app: FastifyInstance,
  bound: ConnectionBound,
  registry: Registry,
  clock: () => number = () => performance.now(),
): void {
  const max = bound.maxConnectionsPerAddress;
  if (max <= 0) return;
  const trusted = addressList(bound.trustProxy);
  const refusedTotal = new Counter({
    name: 'erx_connections_refused_total',
    help: 'Connections closed at once because their address held ERX_MAX_CONNECTIONS_PER_ADDRESS.',
    registers: [registry],
  });
  // Open connections by address; an address leaves the map with its last connection.
  const open = new Map<string, number>();
  let refused = 0;
  let lastWarning = -Infinity;
  const warn = (address: string): void => {
    const now = clock();
    if (now - lastWarning < REFUSED_WARNING_MS) return;
    app.log.warn(
      { address, refused, maxConnectionsPerAddress: max },
      'connections refused: too many open from one address',
    );
    lastWarning = now;
    refused = 0;
  };
  app.server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    // No address: the client is gone already, and Node closes the socket.
    if (address === undefined || trusted.check(address, family(address))) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      refused++;
      refusedTotal.inc();
      warn(address);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
