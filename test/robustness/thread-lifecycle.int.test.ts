/**
 * Background threads are resources of the runtime: importing erx's modules starts none, and a
 * runtime's `close()` ends the ones it started (the signing pool's and SQLite's checkpoint thread).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { SIGNING_THREAD_NICENESS } from '../../src/pki/sign-pool.js';
import { openRuntime } from '../../src/server/runtime.js';
import { modulePath, nodeArgs } from '../support/modules.js';
import { threadNiceness } from '../support/thread-niceness.js';
import type { Running } from '../support/threads-after-import.js';

/** The modules that own, use or wire up the background threads (and, through them, most of erx). */
const MODULES = [
  'src/background-thread.ts',
  'src/pki/index.ts',
  'src/ledger/index.ts',
  'src/http/load-shedding.ts',
  'src/store/sqlite/background-checkpoints.ts',
  'src/server/runtime.ts',
  'src/server/serve.ts',
];

const LINUX = process.platform === 'linux';

/** Polls `done` every 20 ms for up to 10 s. */
async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe('background threads', () => {
  it('importing the modules starts no thread, timer or listener, and the process ends by itself', () => {
    // A process kept alive by something an import started would hit the timeout.
    const output = execFileSync(
      process.execPath,
      [...nodeArgs('test/support/threads-after-import.ts'), ...MODULES.map(modulePath)],
      { encoding: 'utf8', timeout: 60_000 },
    );
    const { before, after, withPool } = JSON.parse(output) as Record<string, Running>;
    assert.deepEqual(after!.resources, before!.resources);
    if (LINUX) {
      assert.equal(after!.threads, before!.threads);
      // The control: two threads started after the imports are seen.
      assert.equal(withPool!.threads, before!.threads + 2);
    }
  });

  it(
    'close() of a runtime ends its signing threads and its checkpoint thread',
    { skip: !LINUX && 'threads are read from /proc (Linux only)' },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'erx-thread-lifecycle-'));
      try {
        const runtime = await openRuntime(loadConfig({ ERX_DATA_DIR: dataDir, PORT: '0' }));
        const own = threadNiceness().get(process.pid)!;
        const background = (): number[] =>
          [...threadNiceness()]
            .filter(([, nice]) => nice === Math.min(19, own + SIGNING_THREAD_NICENESS))
            .map(([tid]) => tid);
        runtime.signPool.start();
        const expected = runtime.signPool.size + 1;
        // Each thread lowers its own priority once it runs, a few milliseconds after it starts.
        await waitFor(() => background().length >= expected);
        const started = background();
        assert.equal(started.length, expected);

        await runtime.close();
        const alive = (): number[] => started.filter((tid) => threadNiceness().has(tid));
        await waitFor(() => alive().length === 0);
        assert.deepEqual(alive(), []);
        assert.equal(runtime.signPool.started, 0);
        await assert.rejects(
          runtime.pki.signer
            .keyAt(new Date())
            .then((key) => runtime.signPool.sign(key.privateKey, '', 'x')),
          /closed/,
        );
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
