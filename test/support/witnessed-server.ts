/**
 * erx with test witnesses configured (`ERX_LOG_WITNESSES`): the log key is made in the data
 * directory first, so the witnesses know it before erx starts, as an operator would register a
 * log with its witnesses. Also waits for the witnesses' cosignatures on the log's head, and makes
 * a receipt carry the cosignatures kept on its checkpoint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLogIdentity } from '../../src/server/log-key.js';
import { createTestDatabase } from './postgres.js';
import { startTestServer } from './server.js';
import type { TestServer } from './server.js';
import { startWitness } from './witness.js';
import type { TestWitness } from './witness.js';

/** The origin of the test log (and its key's name). */
export const TEST_LOG_ORIGIN = 'erx.test/log';

/** erx, its witnesses and its log's vkey; `close()` ends them all and removes the data. */
export interface WitnessedServer {
  server: TestServer;
  witnesses: TestWitness[];
  logVkey: string;
  dataDir: string;
  /** Stops erx only (the data directory and witnesses stay), and starts it again. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts `count` witnesses named `witness.test/w<i>` and erx configured with them. */
export async function startWitnessedServer(count: number): Promise<WitnessedServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'erx-witnessed-'));
  const logVkey = openLogIdentity(dataDir, TEST_LOG_ORIGIN).verifierKey;
  const witnesses: TestWitness[] = [];
  for (let i = 1; i <= count; i++)
    witnesses.push(await startWitness(`witness.test/w${i}`, [logVkey]));
  // The database outlives a restart: made here, not by each server (ERX_TEST_ENGINE=postgres).
  const database =
    process.env.ERX_TEST_ENGINE === 'postgres' ? await createTestDatabase() : undefined;
  const env: Record<string, string> = {
    ERX_LOG_ORIGIN: TEST_LOG_ORIGIN,
    ERX_LOG_WITNESSES: witnesses.map((w) => `${w.vkey}=${w.url}`).join(' '),
    ...(database ? { ERX_DATABASE_URL: database.url } : {}),
  };
  const handle: WitnessedServer = {
    server: await startTestServer({ dataDir, env }),
    witnesses,
    logVkey,
    dataDir,
    restart: async () => {
      await handle.server.close();
      handle.server = await startTestServer({ dataDir, env });
    },
    close: async () => {
      await handle.server.close();
      await Promise.all(witnesses.map((w) => w.close()));
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

/**
 * Waits (up to `ms`) until `count` witnesses have cosigned the log's written head, of at least
 * `atLeast` leaves (a growth is written a moment after its answer), and answers its size and the
 * cosignature lines kept on it.
 */
export async function cosignedHead(
  server: TestServer,
  count: number,
  ms = 20_000,
  atLeast = 1,
): Promise<{ size: number; lines: string[] }> {
  const until = Date.now() + ms;
  for (;;) {
    const head = await server.runtime.store.log.head();
    const lines = head === undefined ? [] : await server.runtime.store.log.cosignatures(head.size);
    if (head !== undefined && head.size >= atLeast && lines.length >= count) {
      return { size: head.size, lines };
    }
    if (Date.now() > until) throw new Error(`no ${count} cosignatures on the head in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The receipt of `eventId` in the head's tree, with the cosignature `lines` on its checkpoint. */
export async function cosignedReceipt(
  server: TestServer,
  eventId: string,
  size: number,
  lines: readonly string[],
): Promise<string> {
  const receipt = await server.runtime.transparency.receipt(eventId);
  if (receipt === undefined) throw new Error(`no receipt for ${eventId}`);
  if (receiptSize(receipt) !== size) throw new Error('the head moved on');
  return `${receipt}${lines.map((l) => `${l}\n`).join('')}`;
}

/** The tree size of the checkpoint that ends `receipt` (the note's second line). */
export function receiptSize(receipt: string): number {
  return Number(receipt.slice(receipt.indexOf('\n\n') + 2).split('\n')[1]);
}
