/**
 * `erx serve` starts its signing threads when it starts, not at the first call that signs: threads
 * started then would take that call's first tens of milliseconds, in which the signing-queue bound
 * refuses every call that signs (docs/decisions.md, "Signing threads start with the service").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIGNING_THREAD_NICENESS } from '../../src/pki/sign-pool.js';
import { startChildServer } from '../support/child-server.js';
import { threadNiceness } from '../support/thread-niceness.js';

test(
  'a service that has signed nothing yet already runs one signing thread per core',
  { skip: process.platform !== 'linux' && 'thread priorities are read from /proc (Linux only)' },
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'erx-signing-threads-'));
    const server = await startChildServer({ ERX_DATA_DIR: dataDir });
    try {
      const pid = server.process.pid!;
      const own = threadNiceness(pid).get(pid)!;
      const lowered = (): number =>
        [...threadNiceness(pid).values()].filter(
          (nice) => nice === Math.min(19, own + SIGNING_THREAD_NICENESS),
        ).length;
      // Each thread lowers its own priority once it runs, a few milliseconds after it starts:
      // wait for that, without any call that signs.
      const deadline = Date.now() + 10_000;
      while (lowered() < availableParallelism() + 1 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Below the event loop run the signing threads and SQLite's checkpoint thread.
      assert.equal(lowered(), availableParallelism() + 1);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
);
