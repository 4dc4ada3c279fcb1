/**
 * Helpers for the transparency log suites: grow a test server's log by creating prescriptions (one
 * event each) and wait until its newest checkpoint holds every event, then read the leaves back.
 */
import assert from 'node:assert/strict';
import type { LeafRow } from '../../src/store/log.js';
import { createPrescription } from './e2e.js';
import type { TestServer } from './server.js';

/** Creates `count` prescriptions, `parallel` at a time. */
export async function createEvents(
  server: TestServer,
  count: number,
  parallel = 32,
): Promise<void> {
  let left = count;
  const worker = async (): Promise<void> => {
    while (left > 0) {
      left--;
      await createPrescription(server);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}

/** The events numbered after the served checkpoint's last leaf whose hash it does not hold. */
async function unlogged(server: TestServer, size: number): Promise<number> {
  const { log } = server.runtime.store;
  const events = await log.readCandidates(await log.feedReadAt(size), 1_000_000);
  const logged = await log.loggedHashes(
    events.map((e) => e.hash),
    size,
  );
  return events.filter((e) => !logged.has(e.hash)).length;
}

/** Waits until the served checkpoint holds every numbered event; answers its size. */
export async function grownLog(server: TestServer, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await server.runtime.transparency.grow();
    const head = await server.runtime.transparency.checkpoint();
    const left = await unlogged(server, head?.size ?? 0);
    if (head !== undefined && left === 0) return head.size;
    assert.ok(Date.now() < deadline, `log at ${head?.size ?? 0}, ${left} events not in it`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The leaves 0 .. size - 1 as the log took them in. */
export async function logLeaves(server: TestServer, size: number): Promise<LeafRow[]> {
  return server.runtime.store.log.readLeafRows(0, size);
}
