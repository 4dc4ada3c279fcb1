/**
 * First start: an empty store gets one demo prescriber and one demo pharmacist with
 * random secrets. The credentials are kept in `<dataDir>/demo-clients.json` (mode 0600) so that
 * later starts can print them again; delete the file (and the clients) for anything but a trial.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenService } from '../auth/index.js';

export interface DemoClient {
  clientId: string;
  clientSecret: string;
  role: 'prescriber' | 'pharmacist';
  name: string;
  sub: string;
}

const DEMO: readonly Omit<DemoClient, 'clientSecret'>[] = [
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
function demoClientsFile(dataDir: string): string {
  return join(dataDir, 'demo-clients.json');
}

/** Creates the demo clients when the store has no client at all; returns the demo credentials. */
export async function ensureDemoClients(
  tokens: TokenService,
  dataDir: string,
): Promise<DemoClient[] | undefined> {
  const file = demoClientsFile(dataDir);
  if ((await tokens.listClients()).length === 0) {
    const created: DemoClient[] = [];
    for (const demo of DEMO) {
      const added = await tokens.addClient({
        ...demo,
        description: 'demo client created on first start',
      });
      created.push({ ...demo, clientSecret: added.secret as string });
    }
    writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
    return created;
  }
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoClient[];
  } catch {
    return undefined;
  }
}
