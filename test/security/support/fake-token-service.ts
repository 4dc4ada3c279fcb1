/**
 * A stand-in external token service speaking the seed's GetTokenInfo (seed §4.3, §2.6) that can
 * be made slow, for the fail-closed tests, or hold its answers, for requests kept in progress. Tokens name their role: `doc-…` is a prescriber,
 * `ph-…` a pharmacist; anything else is inactive.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTokenService {
  /** The GetTokenInfo URL to give erx as `ERX_AUTH_URL`. */
  url: string;
  /** Milliseconds to wait before each answer (0: at once). */
  delayMs: number;
  /** While true, answers wait; set false, the waiting ones are sent. */
  holding: boolean;
  /** Token checks received so far. */
  readonly checks: number;
  /** Closes the port (pending answers are cut off): the service is down. */
  close(): Promise<void>;
}

export const SERVICE_CLIENT = { id: 'erx-service', secret: 'service-secret-0123456789' };

function infoFor(token: string): Record<string, unknown> {
  const role = token.startsWith('doc-')
    ? 'prescriber'
    : token.startsWith('ph-')
      ? 'pharmacist'
      : '';
  if (role === '') return { active: false };
  const sub = role === 'prescriber' ? 'HIN|ext.doctor' : 'HIN|ext.pharmacy';
  return {
    active: true,
    scope: role,
    sub,
    client_id: sub,
    name: role === 'prescriber' ? 'Dr. med. Extern' : 'Apotheke Extern',
    description: 'test client',
    expires_in: 600,
  };
}

/** Starts the fake token service on an ephemeral port. */
export async function startFakeTokenService(): Promise<FakeTokenService> {
  let checks = 0;
  const state = { delayMs: 0, holding: false };
  const held: (() => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      checks += 1;
      const form = new URLSearchParams(body);
      const answer =
        form.get('client_id') === SERVICE_CLIENT.id &&
        form.get('client_secret') === SERVICE_CLIENT.secret
          ? infoFor(form.get('token') ?? '')
          : undefined;
      const reply = (): void => {
        if (res.destroyed) return;
        if (answer === undefined) res.writeHead(401).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      };
      if (state.holding) held.push(reply);
      else if (state.delayMs > 0) setTimeout(reply, state.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/REST/v1/OAuth/GetTokenInfo`,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    get holding() {
      return state.holding;
    },
    set holding(value: boolean) {
      state.holding = value;
      if (!value) for (const reply of held.splice(0)) reply();
    },
    get checks() {
      return checks;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
