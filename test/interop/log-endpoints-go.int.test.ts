/**
 * Interop: a real erx's `/log` endpoints read by Go's golang.org/x/mod/sumdb/note and sumdb/tlog
 * (test/interop/tlogcheck): two of its checkpoints open with the key `/log/key` serves, the
 * consistency proof between them checks, and every tile and entry bundle of both trees, fetched
 * over HTTP, is authenticated by `tlog.TileHashReader` against its checkpoint's root, with an
 * inclusion proof for every leaf. A leaf hash rewritten in the database makes Go refuse the tiles.
 * Without `go` the suite skips with a printed reason (under CI that is a failure).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { proveConsistency, storedHashIndex } from '../../src/tlog/index.js';
import { createEvents, grownLog } from '../support/log-events.js';
import { editLogRows } from '../support/log-rows.js';
import { useTestServer } from '../support/server.js';
import { buildChecker, goSkipReason, runChecker } from '../support/tlog/go-checker.js';

const skip = goSkipReason();

describe('Go sumdb/tlog reads a real erx’s /log endpoints', { skip }, () => {
  const server = useTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'erx-log-go-'));
  let binary = '';
  let key = '';
  const notes: string[] = [];
  const sizes: number[] = [];

  before(async () => {
    key = (await server.request('GET', '/log/key')).text.trim();
    for (const grow of [7, 253]) {
      await createEvents(server, grow);
      sizes.push(await grownLog(server));
      notes.push((await server.request('GET', '/log/checkpoint')).text);
    }
    // Last: the build blocks this process, and an idle keep-alive connection to the server could
    // be closed under a request made right after it.
    binary = buildChecker(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The checker's request for both checkpoints, their tiles read from erx over HTTP. */
  async function request() {
    const reader = (indexes: readonly number[]) => server.runtime.store.log.readHashes(indexes);
    const proof = await proveConsistency(sizes[1]!, sizes[0]!, reader);
    return {
      origin: server.runtime.config.logOrigin,
      logKey: key,
      checkpoints: notes,
      consistency: [{ old: 0, new: 1, proof: proof.map((h) => h.toString('base64')) }],
      tiles: { baseURL: `${server.url}/log`, checkpoints: [0, 1] },
    };
  }

  it('opens the checkpoints, checks their consistency and every tile and entry', async () => {
    assert.ok(sizes[1]! > 256, `tree of ${sizes[1]} has no level 1 tile`);
    const run = await runChecker(binary, await request());
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as Record<string, number>;
    assert.equal(summary.checkpoints, 2);
    assert.equal(summary.consistency, 1);
    assert.equal(summary.tileLeaves, sizes[0]! + sizes[1]!);
  });

  it('refuses the tiles once a leaf hash is rewritten in the database', async () => {
    await editLogRows(server.dataDir, server.runtime.config.databaseUrl, [
      {
        sql: 'UPDATE log_hashes SET hash = ? WHERE idx = ?',
        params: [randomBytes(32), storedHashIndex(0, sizes[1]! - 1)],
      },
    ]);
    const run = await runChecker(binary, await request());
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stderr, new RegExp(`tiles of checkpoint 1 \\(size ${sizes[1]}\\)`));
  });
});
