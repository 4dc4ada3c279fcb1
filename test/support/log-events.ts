/**
 * Helpers for the transparency log suites: grow a test server's log by creating prescriptions (one
 * event each) and wait until its newest checkpoint holds every event, then read the leaves back.
 */
import assert from 'node:assert/strict';
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

/** The number of events on the feed (the size the log grows to). */
async function eventCount(server: TestServer): Promise<number> {
  const leaves = await server.runtime.store.log.readLeaves(0, 1_000_000);
  return leaves.length;
}

/** Waits until the served checkpoint holds every event; answers its size. */
export async function grownLog(server: TestServer, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await server.runtime.transparency.grow();
    const want = await eventCount(server);
    const head = await server.runtime.transparency.checkpoint();
    if (head !== undefined && head.size === want) return want;
    assert.ok(Date.now() < deadline, `log at ${head?.size ?? 0} of ${want} events`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The hex hashes of the events that are leaves 0 .. size - 1. */
export async function leafEventHashes(server: TestServer, size: number): Promise<string[]> {
  const leaves = await server.runtime.store.log.readLeaves(0, size);
  return leaves.map((l) => l.hash);
}
