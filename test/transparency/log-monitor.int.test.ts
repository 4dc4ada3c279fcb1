/**
 * `erx log key` and `erx log monitor` against a real erx (SQLite, and PostgreSQL in the runner's
 * second pass): consistent growth passes and is remembered in the state file; a rewritten leaf
 * hash, a rewritten entry, a truncated tree and a forked root (another checkpoint signed with the
 * real log key) each make it exit 1 with a message naming the sizes of both trees, and leave the
 * state as it was.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { monitorOnce } from '../../src/cli/log-monitor.js';
import type { MonitorOutput } from '../../src/cli/log-monitor.js';
import { LOG_KEY_FILE } from '../../src/server/log-key.js';
import {
  ed25519NoteSigner,
  ed25519PrivateKeyFromSeed,
  ed25519VerifierKey,
  formatCheckpoint,
  signNote,
  storedHashCount,
  storedHashIndex,
} from '../../src/tlog/index.js';
import { createEvents, grownLog } from '../support/log-events.js';
import { editLogRows } from '../support/log-rows.js';
import { createTestDatabase } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { ERX_CLI } from '../support/modules.js';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

const PRESCRIPTION_URL = 'http://erx.test/rx/';

/** Runs `erx <args>` from the sources (asynchronously: the server runs in this process). */
function erx(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ERX_CLI, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/** An erx over a data directory (and, on PostgreSQL, a database) that outlives restarts. */
class Instance {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'erx-log-monitor-'));
  readonly state = join(this.dataDir, 'monitor-state.json');
  #database: TestDatabase | undefined;
  #server: TestServer | undefined;

  get server(): TestServer {
    assert.ok(this.#server, 'not started');
    return this.#server;
  }

  get databaseUrl(): string | undefined {
    return this.#database?.url;
  }

  async start(): Promise<TestServer> {
    if (process.env.ERX_TEST_ENGINE === 'postgres' && this.#database === undefined) {
      this.#database = await createTestDatabase();
    }
    const env: Record<string, string> = this.#database
      ? { ERX_DATABASE_URL: this.#database.url }
      : {};
    this.#server = await startTestServer({ dataDir: this.dataDir, env });
    return this.#server;
  }

  async stop(): Promise<void> {
    await this.#server?.close();
    this.#server = undefined;
  }

  async close(): Promise<void> {
    await this.stop();
    await this.#database?.drop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Grows the log by `count` events; answers its new size. */
  async grow(count: number): Promise<number> {
    await createEvents(this.server, count);
    return grownLog(this.server);
  }

  /** `erx log monitor` run in this process (the command's own code, without its start-up). */
  async monitor(logKey?: string): Promise<CliRun> {
    let stdout = '';
    let stderr = '';
    const out: MonitorOutput = {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    };
    const options = logKey === undefined ? { state: this.state } : { state: this.state, logKey };
    const ok = await monitorOnce(this.server.url, options, out);
    assert.equal(ok, out.exitCode === undefined);
    return { status: ok ? 0 : Number(out.exitCode), stdout, stderr };
  }

  /** `erx log monitor` as a process of its own. */
  monitorProcess(): Promise<CliRun> {
    return erx(['log', 'monitor', this.server.url, '--state', this.state]);
  }

  savedState(): { size: number; root: string; key: string } {
    return JSON.parse(readFileSync(this.state, 'utf8'));
  }
}

/** Asserts a run that found the log misbehaving: exit 1, `reason` said, both sizes named. */
function assertRefused(run: CliRun, message: RegExp, newSize: number, oldSize: number): void {
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, message);
  assert.ok(run.stderr.includes(`new tree of size ${newSize}`), run.stderr);
  assert.ok(run.stderr.includes(`last verified tree of size ${oldSize}`), run.stderr);
}

describe('erx log monitor against a real erx', () => {
  const instances: Instance[] = [];
  const instance = async (): Promise<Instance> => {
    const made = new Instance();
    instances.push(made);
    await made.start();
    return made;
  };
  after(async () => {
    for (const made of instances) await made.close();
  });

  it('passes consistent growth, trusting the served key on first use only', async () => {
    const erxLog = await instance();
    const first = await erxLog.grow(3);
    const key = await erx(['log', 'key'], {
      ERX_DATA_DIR: erxLog.dataDir,
      ERX_PRESCRIPTION_URL: PRESCRIPTION_URL,
    });
    assert.equal(key.status, 0, key.stderr);
    const served = await erxLog.server.request('GET', '/log/key');
    assert.equal(key.stdout, served.text);

    const run1 = await erxLog.monitor();
    assert.equal(run1.status, 0, run1.stderr);
    assert.match(run1.stderr, /warning: trusting the key the log serves on first use/);
    assert.ok(run1.stdout.includes(`tree of size ${first}`), run1.stdout);
    assert.equal(erxLog.savedState().size, first);
    assert.equal(erxLog.savedState().key, key.stdout.trim());

    const second = await erxLog.grow(2);
    const run2 = await erxLog.monitor();
    assert.equal(run2.status, 0, run2.stderr);
    assert.doesNotMatch(run2.stderr, /warning/);
    assert.ok(run2.stdout.includes(`size ${first} extended to ${second}`), run2.stdout);
    assert.equal(erxLog.savedState().size, second);

    const run3 = await erxLog.monitor(key.stdout.trim());
    assert.equal(run3.status, 0, run3.stderr);
    assert.ok(run3.stdout.includes(`unchanged: tree of size ${second}`), run3.stdout);
  });

  it('refuses a checkpoint the pinned key did not sign', async () => {
    const erxLog = await instance();
    await erxLog.grow(1);
    const other = ed25519VerifierKey(
      erxLog.server.runtime.config.logOrigin,
      ed25519PrivateKeyFromSeed(randomBytes(32)),
    );
    const run = await erxLog.monitor(other);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /not signed by the log’s key/);
    assert.throws(() => erxLog.savedState(), /ENOENT/);
  });

  it('reports a rewritten leaf hash in log_hashes, naming both sizes', async () => {
    const erxLog = await instance();
    const old = await erxLog.grow(3);
    assert.equal((await erxLog.monitor()).status, 0);
    const grown = await erxLog.grow(2);
    await editLogRows(erxLog.dataDir, erxLog.databaseUrl, [
      {
        sql: 'UPDATE log_hashes SET hash = ? WHERE idx = ?',
        params: [randomBytes(32), storedHashIndex(0, 1)],
      },
    ]);
    // Through the command's own process: its exit code and what it writes.
    const run = await erxLog.monitorProcess();
    assertRefused(run, /tiles do not match its signed checkpoint/, grown, old);
    assert.equal(erxLog.savedState().size, old, 'the state moved on');
  });

  it('reports a rewritten entry (a leaf’s event hash), naming both sizes', async () => {
    const erxLog = await instance();
    const old = await erxLog.grow(3);
    assert.equal((await erxLog.monitor()).status, 0);
    const grown = await erxLog.grow(2);
    await editLogRows(erxLog.dataDir, erxLog.databaseUrl, [
      {
        sql: 'UPDATE log_leaves SET hash = ? WHERE idx = ?',
        params: [randomBytes(32).toString('hex'), old],
      },
    ]);
    const run = await erxLog.monitor();
    assertRefused(run, /does not hash to its leaf/, grown, old);
    assert.match(run.stderr, new RegExp(`entry ${old} does not hash to leaf ${old}`));
  });

  it('reports a truncated tree (newest checkpoints deleted) as a rollback', async () => {
    const erxLog = await instance();
    const kept = await erxLog.grow(3);
    const grown = await erxLog.grow(2);
    assert.equal((await erxLog.monitor()).status, 0);
    await erxLog.stop();
    // As a restore of an older backup would leave it: the checkpoints, hashes and events after.
    await editLogRows(erxLog.dataDir, erxLog.databaseUrl, [
      { sql: 'DELETE FROM log_cosignatures WHERE size > ?', params: [kept] },
      { sql: 'DELETE FROM log_checkpoints WHERE size > ?', params: [kept] },
      { sql: 'DELETE FROM log_hashes WHERE idx >= ?', params: [storedHashCount(kept)] },
      { sql: 'DELETE FROM log_leaves WHERE idx >= ?', params: [kept] },
      { sql: 'DELETE FROM events WHERE feed_seq > ?', params: [kept] },
    ]);
    await erxLog.start();
    const head = await erxLog.server.request('GET', '/log/checkpoint');
    assert.equal(head.text.split('\n')[1], String(kept));
    assertRefused(await erxLog.monitor(), /rolled back/, kept, grown);
    assert.equal(erxLog.savedState().size, grown);
  });

  it('reports a forked root: another checkpoint of the same size signed with the log key', async () => {
    const erxLog = await instance();
    const size = await erxLog.grow(4);
    assert.equal((await erxLog.monitor()).status, 0);
    const { logOrigin } = erxLog.server.runtime.config;
    await erxLog.stop();
    const seed = readFileSync(join(erxLog.dataDir, LOG_KEY_FILE));
    const root = randomBytes(32);
    const signer = ed25519NoteSigner(logOrigin, ed25519PrivateKeyFromSeed(seed));
    const note = await signNote(formatCheckpoint({ origin: logOrigin, size, root }), [signer]);
    await editLogRows(erxLog.dataDir, erxLog.databaseUrl, [
      {
        sql: 'UPDATE log_checkpoints SET root = ?, note = ? WHERE size = ?',
        params: [root, note, size],
      },
    ]);
    await erxLog.start();
    const served = await erxLog.server.request('GET', '/log/checkpoint');
    assert.equal(served.text, note);
    const run = await erxLog.monitor();
    assertRefused(run, /forked/, size, size);
    assert.match(run.stderr, /same size, another root/);
  });
});
