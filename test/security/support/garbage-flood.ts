/**
 * A flood of made-up bearer tokens at a steady rate from one client (a NAT's other user), over a
 * few kept-alive connections, counting the answers by status while it runs.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';

export interface FloodOptions {
  url: string;
  /** The call the tokens are sent with (no body). */
  method: string;
  path: string;
  ratePerSecond: number;
  /** Sent with every call besides `Authorization` (e.g. `X-Forwarded-For`). */
  headers?: Record<string, string>;
  /** Connections used at most (erx bounds connections per address). */
  connections?: number;
}

export interface Flood {
  /** Calls sent so far. */
  readonly sent: number;
  /** Answers so far by HTTP status. */
  readonly statuses: Readonly<Record<number, number>>;
  /** Resolves once an answer of `status` has come, rejects after `timeoutMs`. */
  answered(status: number, timeoutMs?: number): Promise<void>;
  /** Stops sending and resolves once every call sent is answered. */
  stop(): Promise<void>;
}

const TICK_MS = 5;

/** Starts a flood of made-up tokens; {@link Flood.stop} ends it. */
export function startGarbageFlood(options: FloodOptions): Flood {
  const { hostname, port } = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 8 });
  const statuses: Record<number, number> = {};
  const pending = new Set<Promise<void>>();
  let sent = 0;

  const fire = (): void => {
    const token = randomBytes(32).toString('base64url');
    const call = new Promise<void>((resolve) => {
      const req = request(
        {
          host: hostname,
          port: Number(port),
          method: options.method,
          path: options.path,
          agent,
          headers: { ...options.headers, authorization: `Bearer acs:${token}` },
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
            resolve();
          });
          res.once('error', () => resolve());
        },
      );
      req.once('error', () => resolve());
      req.end();
    });
    pending.add(call);
    void call.finally(() => pending.delete(call));
  };

  const start = performance.now();
  // Catches up on every tick, so a late timer on a busy machine does not lower the rate.
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) * options.ratePerSecond) / 1000);
    while (sent < due) {
      sent++;
      fire();
    }
  }, TICK_MS);

  return {
    get sent() {
      return sent;
    },
    statuses,
    answered: async (status, timeoutMs = 10_000) => {
      const until = performance.now() + timeoutMs;
      while (!statuses[status]) {
        if (performance.now() > until) {
          throw new Error(`no ${status} in time: ${JSON.stringify(statuses)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      }
    },
    stop: async () => {
      clearInterval(timer);
      while (pending.size > 0) await Promise.all(pending);
      agent.destroy();
    },
  };
}
