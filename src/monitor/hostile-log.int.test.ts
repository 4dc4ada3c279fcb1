/**
 * `erx log monitor` as a safe client of a hostile log server (issue 39, point 5): a gzip bomb is
 * dropped at the body limit with the process's memory bounded; a validly signed tree of 2^32
 * leaves is checked a bounded number of tiles and bundles per run, the next run going on from
 * there; SIGTERM mid-run ends the process while a request is still unanswered, the state file
 * untouched; a redirect to another host is not followed. Counts and conditions, never timings.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { monitorOnce } from '../cli/log-monitor.js';
import type { MonitorOutput } from '../cli/log-monitor.js';
import {
  startHostileLog,
  HOSTILE_LOG_KEY,
  HUGE_TREE_SIZE,
} from '../../test/support/monitor/hostile-log.js';
import type { HostileLog } from '../../test/support/monitor/hostile-log.js';
import { ERX_CLI } from '../../test/support/modules.js';
import { sameHostRedirect } from './bounded-get.js';
import { MAX_BODY_BYTES } from './log-client.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `erx log monitor` run in this process. */
async function monitorHere(url: string, state: string, maxLeaves?: number): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out: MonitorOutput = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  await monitorOnce(url, { state, logKey: HOSTILE_LOG_KEY, maxLeaves }, out);
  return { status: out.exitCode === undefined ? 0 : Number(out.exitCode), stdout, stderr };
}

/** Where the child reports its peak resident memory, in KiB, as its last line of stderr. */
const REPORT_MAX_RSS =
  "process.on('exit', () => process.stderr.write(`maxrss ${process.resourceUsage().maxRSS}\\n`))";

/** `erx log monitor` as a process of its own; `onSpawn` sees it start. */
function monitorProcess(
  url: string,
  state: string,
  onSpawn: (pid: number) => void = () => undefined,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(REPORT_MAX_RSS)}`,
        ...ERX_CLI,
        'log',
        'monitor',
        url,
        '--state',
        state,
        '--log-key',
        HOSTILE_LOG_KEY,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('spawn', () => onSpawn(child.pid!));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function maxRssKiB(run: Run): number {
  const match = /maxrss (\d+)\n$/.exec(run.stderr);
  assert.ok(match, run.stderr);
  return Number(match[1]);
}

describe('erx log monitor against a hostile log', () => {
  let log: HostileLog;
  const dir = mkdtempSync(join(tmpdir(), 'erx-hostile-log-'));
  let states = 0;
  const freshState = (): string => join(dir, `state-${++states}.json`);
  before(async () => {
    log = await startHostileLog();
  });
  after(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks a 2^32-leaf tree a bounded number of bundles per run and resumes where it stopped', async () => {
    log.override = undefined;
    log.requests.length = 0;
    const state = freshState();
    const first = await monitorHere(log.url, state, 512);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`entries checked up to leaf 512 of ${HUGE_TREE_SIZE}`));
    const bundles = (requests: string[]) => requests.filter((p) => p.startsWith('tile/entries/'));
    assert.deepEqual(bundles(log.requests), ['tile/entries/000', 'tile/entries/001']);
    // The checkpoint, the right edge (one tile per level) and the two level-0 tiles' parents.
    assert.ok(log.requests.length <= 12, log.requests.join(' '));
    assert.equal(JSON.parse(readFileSync(state, 'utf8')).checked, 512);

    log.requests.length = 0;
    const second = await monitorHere(log.url, state, 512);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /log unchanged/);
    assert.match(second.stdout, new RegExp(`entries checked up to leaf 1024 of ${HUGE_TREE_SIZE}`));
    assert.deepEqual(bundles(log.requests), ['tile/entries/002', 'tile/entries/003']);
  });

  it('drops a gzip bomb at the body limit, its memory bounded', async () => {
    // 1 GiB of zeros in about 1 MiB of gzip members; the log's key comes along unpacked.
    const member = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const bomb = Buffer.concat(Array(16).fill(member));
    log.override = (path, _request, response) => {
      if (path !== 'checkpoint') return false;
      response.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
      return true;
    };
    const here = await monitorHere(log.url, freshState());
    assert.equal(here.status, 1);
    assert.ok(here.stderr.includes(`over ${MAX_BODY_BYTES} bytes`), here.stderr);

    const bombed = await monitorProcess(log.url, freshState());
    assert.equal(bombed.status, 1, bombed.stderr);
    assert.ok(bombed.stderr.includes(`over ${MAX_BODY_BYTES} bytes`), bombed.stderr);
    // The same process against a checkpoint that is simply missing: what start-up alone costs.
    log.override = (path, _request, response) => {
      if (path !== 'checkpoint') return false;
      response.writeHead(404).end();
      return true;
    };
    const baseline = await monitorProcess(log.url, freshState());
    assert.equal(baseline.status, 1, baseline.stderr);
    const grownMiB = (maxRssKiB(bombed) - maxRssKiB(baseline)) / 1024;
    assert.ok(grownMiB < 64, `the bomb took ${grownMiB.toFixed(0)} MiB more than start-up`);
  });

  it('ends a run on SIGTERM while a request is unanswered, the state file left as it was', async () => {
    const state = freshState();
    log.override = undefined;
    const partial = await monitorHere(log.url, state, 256);
    assert.equal(partial.status, 0, partial.stderr);
    const kept = readFileSync(state, 'utf8');

    let pid = 0;
    let signalled = false;
    let afterSignal = 0;
    const held: Array<() => void> = [];
    log.override = (path, _request, response) => {
      if (signalled) {
        // A monitor that ignored the signal goes on asking: stop it, the count tells.
        if (++afterSignal >= 5) process.kill(pid, 'SIGKILL');
        return false;
      }
      if (!path.startsWith('tile/entries/')) return false;
      // Held unanswered: the process must end without waiting for it.
      held.push(() => response.destroy());
      signalled = true;
      process.kill(pid, 'SIGTERM');
      return true;
    };
    const run = await monitorProcess(log.url, state, (started) => (pid = started));
    held.forEach((release) => release());
    assert.equal(signalled, true, run.stderr);
    assert.equal(run.status, 143, run.stderr);
    assert.match(run.stderr, /stopped by a signal/);
    assert.equal(afterSignal, 0, 'requests made after SIGTERM');
    assert.equal(readFileSync(state, 'utf8'), kept);
  });

  it('does not follow a redirect to another host', async () => {
    let elsewhere = 0;
    const other = createServer((_request, response) => {
      elsewhere++;
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    log.override = (path, _request, response) => {
      if (path !== 'checkpoint') return false;
      response.writeHead(302, { location: `${otherUrl}/log/checkpoint` }).end();
      return true;
    };
    try {
      const run = await monitorHere(log.url, freshState());
      assert.equal(run.status, 1);
      assert.match(run.stderr, /redirected to another host/);
      assert.equal(elsewhere, 0);
    } finally {
      other.close();
    }
  });

  it('follows a redirect on the same host, and an upgrade to https of the same name only', () => {
    const from = new URL('http://log.example:8080/log/checkpoint');
    assert.equal(sameHostRedirect(from, new URL('http://log.example:8080/x')), true);
    assert.equal(sameHostRedirect(from, new URL('https://log.example/log/checkpoint')), true);
    assert.equal(sameHostRedirect(from, new URL('http://log.example:8081/x')), false);
    assert.equal(sameHostRedirect(from, new URL('http://evil.example:8080/x')), false);
    const secure = new URL('https://log.example/log/checkpoint');
    assert.equal(sameHostRedirect(secure, new URL('http://log.example/log/checkpoint')), false);
    assert.equal(sameHostRedirect(from, new URL('file:///etc/passwd')), false);
  });
});
