/**
 * The bulk loader: valid, signed chains written straight into the SQLite store of a data
 * directory, far faster than through the API, with the rows erx's create writes (the medicament
 * copies and their signed terms, SPEC.md §10). Signing (the cost: one ES384 signature per event)
 * runs in worker threads on every core; the main thread writes through the store's own `Store`
 * interface (its prepared statements and head checks) inside large transactions.
 *
 * Durability is relaxed while loading (`synchronous=OFF`, one transaction per batch): a crash
 * leaves a partial file that is simply rebuilt. erx reopens the file with its own settings.
 */
import Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { loadConfig } from '../src/config/index.js';
import { sqlitePath } from '../src/server/open-store.js';
import { openSealKey } from '../src/server/seal-key.js';
import { VerifiedHeads } from '../src/service/verification/verified-heads.js';
import { openKeys } from '../src/server/runtime.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type {
  LoadedChain,
  LoaderTask,
  LoaderWorkerInit,
  LoaderWorkerMessage,
} from './bulk-load-protocol.js';
import { startThread } from '../src/background-thread.js';

/** Prescriptions of one kind: `count` chains of `events` events; the first `keepLinks` links and
 * `keepIds` ids are handed back for the requests of the bench. */
export interface LoadGroup {
  readonly name: string;
  readonly count: number;
  readonly events: number;
  readonly keepIds: number;
  readonly keepLinks: number;
}

export interface LoadSpec {
  readonly dataDir: string;
  readonly prescriptionUrl: string;
  readonly prescriber: { readonly name: string; readonly sub: string };
  readonly pharmacist: { readonly name: string; readonly sub: string };
  readonly groups: readonly LoadGroup[];
  /** Signing workers (default: one per core). */
  readonly workers?: number;
  /** The `ERX_PRESCRIPTION_VALIDITY` of the erx that will serve the data (default: erx's). */
  readonly validityMs?: number;
  readonly onProgress?: (prescriptions: number, total: number) => void;
}

export interface KeptPrescriptions {
  ids: string[];
  links: string[];
}

export interface LoadResult {
  prescriptions: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  workers: number;
  issuedAt: number;
  kept: Record<string, KeptPrescriptions>;
}

const TASK_SIZE = 64;
const TASKS_IN_FLIGHT_PER_WORKER = 2;
const INSERT_BATCH = 4_000;

/**
 * Writes chains through the store in one transaction (nested store transactions are savepoints),
 * each with the seal of its head, as erx's appends write them.
 */
async function insertChains(
  db: Database.Database,
  store: SqliteStore,
  heads: VerifiedHeads,
  chains: LoadedChain[],
): Promise<void> {
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const chain of chains) {
      const [create, ...rest] = chain.events;
      const last = chain.events.at(-1);
      if (create === undefined || last === undefined) throw new Error('a chain without events');
      // The loader signed the terms itself: the seal covers them, as an append's does.
      const seal = heads.sealFor(
        { prescription: { ...chain.row, headHash: last.hash }, events: chain.events },
        true,
      );
      await store.insertPrescription(chain.row, {
        event: create,
        ...(last === create && { seal }),
      });
      for (const event of rest) {
        // The head moves only from the event's parent: a chain built out of order fails here.
        await store.appendEvent({ event, ...(event === last && { seal }) }, event.parentHash ?? '');
      }
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function* tasksOf(groups: readonly LoadGroup[]): Generator<LoaderTask & { group: string }> {
  let taskId = 0;
  for (const group of groups) {
    for (let left = group.count; left > 0; left -= TASK_SIZE) {
      yield {
        taskId: taskId++,
        count: Math.min(TASK_SIZE, left),
        events: group.events,
        group: group.name,
      };
    }
  }
}

/** Loads every group into the (new or existing) data directory `spec.dataDir`. */
export async function bulkLoad(spec: LoadSpec): Promise<LoadResult> {
  const started = performance.now();
  // Keys first, in this thread: the workers then find the link key ring and a current leaf.
  const { linkKeys, pki } = await openKeys(spec.dataDir);
  await pki.signer.keyAt(new Date());
  const issuedAt = Math.max(Math.floor(Date.now() / 1000), linkKeys.current().createdAt);

  const db = new Database(sqlitePath(spec.dataDir));
  const store = new SqliteStore(db);
  const heads = new VerifiedHeads(store, openSealKey(spec.dataDir), pki.trustStore);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');

  const total = spec.groups.reduce((n, g) => n + g.count, 0);
  const kept: Record<string, KeptPrescriptions> = {};
  for (const g of spec.groups) kept[g.name] = { ids: [], links: [] };
  const groupOf = new Map<number, LoadGroup>();
  const workerCount = spec.workers ?? availableParallelism();
  const init: LoaderWorkerInit = {
    dataDir: spec.dataDir,
    prescriptionUrl: spec.prescriptionUrl,
    issuedAt,
    validityMs: spec.validityMs ?? loadConfig({}).prescriptionValidityMs,
    prescriber: spec.prescriber,
    pharmacist: spec.pharmacist,
    concurrency: 16,
  };

  let loaded = 0;
  let events = 0;
  let pending: LoadedChain[] = [];
  let writing: Promise<void> = Promise.resolve();
  let writeError: unknown;
  const flush = (): void => {
    const batch = pending;
    pending = [];
    writing = writing
      .then(() => (writeError === undefined ? insertChains(db, store, heads, batch) : undefined))
      .catch((error: unknown) => {
        writeError ??= error;
      });
  };
  const keep = (group: LoadGroup, chains: LoadedChain[]): void => {
    const into = kept[group.name]!;
    for (const chain of chains) {
      if (into.ids.length < group.keepIds) into.ids.push(chain.row.id);
      if (into.links.length < group.keepLinks) into.links.push(chain.link);
    }
  };

  const tasks = tasksOf(spec.groups);
  const workers: Worker[] = [];
  let closed = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const feed = (worker: Worker): void => {
        const next = tasks.next();
        if (next.done) return;
        const { group, ...task } = next.value;
        groupOf.set(
          task.taskId,
          spec.groups.find((g) => g.name === group)!,
        );
        running++;
        worker.postMessage(task);
      };
      for (let i = 0; i < workerCount; i++) {
        const worker = startThread('./bulk-load-worker', import.meta.url, { workerData: init });
        workers.push(worker);
        worker.on('error', reject);
        worker.on('message', (message: LoaderWorkerMessage) => {
          if (message.kind === 'failed') return reject(new Error(message.message));
          if (writeError !== undefined) return reject(writeError);
          if (message.kind === 'ready') {
            for (let t = 0; t < TASKS_IN_FLIGHT_PER_WORKER; t++) feed(worker);
            if (running === 0) resolve();
            return;
          }
          running--;
          const group = groupOf.get(message.taskId)!;
          groupOf.delete(message.taskId);
          keep(group, message.chains);
          pending.push(...message.chains);
          loaded += message.chains.length;
          events += message.chains.reduce((n, c) => n + c.events.length, 0);
          if (pending.length >= INSERT_BATCH) flush();
          spec.onProgress?.(loaded, total);
          feed(worker);
          if (running === 0) resolve();
        });
      }
    });
    flush();
    await writing;
    if (writeError !== undefined) throw writeError;
    db.pragma('wal_checkpoint(TRUNCATE)');
    await store.close();
    closed = true;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
    if (!closed) await store.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    prescriptions: loaded,
    events,
    seconds,
    eventsPerSecond: events / seconds,
    workers: workerCount,
    issuedAt,
    kept,
  };
}
