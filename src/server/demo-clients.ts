/**
 * First start: an empty store gets one demo prescriber and one demo pharmacist with random
 * secrets. The credentials are kept in `<dataDir>/demo-clients.json` (mode 0600) and printed at
 * that first start only: a later start names the file and reads nothing secret out of it, so
 * the secrets do not reach the log collection of every start. Delete the file (and the clients)
 * for anything but a trial.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TokenService } from '../auth/index.js';

export interface DemoClient {
  clientId: string;
  clientSecret: string;
  role: 'prescriber' | 'pharmacist';
  name: string;
  sub: string;
}

/** A demo client as a later start shows it: never its secret. */
export type DemoClientInfo = Omit<DemoClient, 'clientSecret'>;

/** The demo clients of a data directory, as `erx serve` shows them on start. */
export type DemoClients =
  | {
      /** The start that created them: the only one that shows their secrets. */
      readonly created: true;
      /** Where the credentials are kept (absolute path). */
      readonly file: string;
      readonly clients: readonly DemoClient[];
    }
  | {
      readonly created: false;
      readonly file: string;
      /** The demo clients of the file that are still registered. */
      readonly clients: readonly DemoClientInfo[];
    };

const DEMO: readonly DemoClientInfo[] = [
  {
    clientId: 'demo-prescriber',
    role: 'prescriber',
    name: 'Dr. med. Lukas Beispiel',
    sub: 'HIN|demo.doctor',
  },
  {
    clientId: 'demo-pharmacist',
    role: 'pharmacist',
    name: 'Apotheke am Platz',
    sub: 'HIN|demo.pharmacy',
  },
];

/** The file holding the demo credentials. */
export function demoClientsFile(dataDir: string): string {
  return resolve(dataDir, 'demo-clients.json');
}

/** The clients listed in `file`, without their secrets; empty when it cannot be read. */
function readDemoClients(file: string): DemoClientInfo[] {
  try {
    const listed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!Array.isArray(listed)) return [];
    return listed.flatMap((entry: Partial<DemoClient> | null) => {
      const known = DEMO.find((d) => d.clientId === entry?.clientId && d.role === entry?.role);
      return known ? [known] : [];
    });
  } catch {
    return [];
  }
}

/**
 * Creates the demo clients when the store has no client at all and answers them with their
 * secrets (`created`); on a later start, the demo clients of the file that are still registered,
 * without secrets. Undefined when there are none.
 */
export async function ensureDemoClients(
  tokens: TokenService,
  dataDir: string,
): Promise<DemoClients | undefined> {
  const file = demoClientsFile(dataDir);
  const registered = await tokens.listClients();
  if (registered.length === 0) {
    const created: DemoClient[] = [];
    for (const demo of DEMO) {
      const added = await tokens.addClient({
        ...demo,
        description: 'demo client created on first start',
      });
      created.push({ ...demo, clientSecret: added.secret as string });
    }
    writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
    return { created: true, file, clients: created };
  }
  if (!existsSync(file)) return undefined;
  const clients = readDemoClients(file).filter((demo) =>
    registered.some((c) => c.clientId === demo.clientId && c.role === demo.role),
  );
  return clients.length > 0 ? { created: false, file, clients } : undefined;
}
