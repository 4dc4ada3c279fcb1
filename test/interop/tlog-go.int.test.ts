/**
 * Interop: what src/tlog produces for a log of 300 events (checkpoints, cosignatures, inclusion
 * and consistency proofs, tlog-proof receipts, tiles and entry bundles served over HTTP) is
 * checked by Go's golang.org/x/mod/sumdb/note and sumdb/tlog (test/interop/tlogcheck); and the
 * checker refuses each kind of tampering.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildChecker, goSkipReason, runChecker } from '../support/tlog/go-checker.js';
import { FIXTURE_ORIGIN, fixtureLog } from '../support/tlog/fixture-log.js';
import type { FixtureLog } from '../support/tlog/fixture-log.js';
import { eventLeafHash } from '../../src/tlog/hash.js';
import { proveConsistency } from '../../src/tlog/prove-consistency.js';
import { proveInclusion } from '../../src/tlog/prove-inclusion.js';
import { formatTlogProof } from '../../src/tlog/tlog-proof.js';

const SIZES = [1, 7, 100, 256, 257, 300];
const skip = goSkipReason();

describe('Go sumdb/note and sumdb/tlog check src/tlog output', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'erx-tlog-go-'));
  const tilesDir = join(dir, 'tiles');
  /** Replaced bytes per tile path, for the tampering cases. */
  const overrides = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).slice(
      1,
    );
    try {
      const body = overrides.get(path) ?? readFileSync(join(tilesDir, path));
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  let binary = '';
  let log: FixtureLog;
  let base = '';

  before(async () => {
    binary = buildChecker(dir);
    log = await fixtureLog(SIZES, tilesDir);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const leafHash = (i: number) => eventLeafHash(log.eventHashes[i]!).toString('base64');

  async function request() {
    const records = [];
    for (const [c, { size }] of log.checkpoints.entries()) {
      const indexes = size === 300 ? Array.from({ length: 300 }, (_, i) => i) : [0, size - 1];
      for (const index of indexes) {
        const proof = await proveInclusion(size, index, log.tree.reader);
        records.push({ checkpoint: c, index, leafHash: leafHash(index), proof: b64(proof) });
      }
    }
    const consistency = [];
    for (let n = 0; n < SIZES.length; n++) {
      for (let o = 0; o <= n; o++) {
        const proof = await proveConsistency(SIZES[n]!, SIZES[o]!, log.tree.reader);
        consistency.push({ old: o, new: n, proof: b64(proof) });
      }
    }
    const receipts = [];
    const last = log.checkpoints.at(-1)!;
    for (const index of [0, 1, 128, 255, 256, 299]) {
      const proof = await proveInclusion(300, index, log.tree.reader);
      const text = formatTlogProof({ index, proof, checkpoint: last.note });
      receipts.push({ text, leafHash: leafHash(index) });
    }
    return {
      origin: FIXTURE_ORIGIN,
      logKey: log.logVkey,
      witnesses: [log.witnessVkey],
      minCosignatures: 1,
      checkpoints: log.checkpoints.map((c) => c.note),
      records,
      consistency,
      receipts,
      tiles: { baseURL: base, checkpoints: SIZES.map((_, i) => i) },
    };
  }

  test('every checkpoint, proof, receipt, tile and entry bundle passes the Go checks', async () => {
    const run = await runChecker(binary, await request());
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as Record<string, number>;
    assert.equal(summary.checkpoints, SIZES.length);
    assert.equal(summary.records, 300 + 2 * (SIZES.length - 1));
    assert.equal(summary.consistency, (SIZES.length * (SIZES.length + 1)) / 2);
    assert.equal(summary.receipts, 6);
    assert.equal(
      summary.tileLeaves,
      SIZES.reduce((a, b) => a + b, 0),
    );
    assert.ok(summary.tilesFetched! > 0);
  });

  test('the same tiles pass when Go reads them from the directory instead of over HTTP', async () => {
    const r = await request();
    const run = await runChecker(binary, {
      ...r,
      tiles: { ...r.tiles, baseURL: '', dir: tilesDir },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      JSON.parse(run.stdout).tileLeaves,
      SIZES.reduce((a, b) => a + b, 0),
    );
  });

  const tampered: Array<[string, (r: Awaited<ReturnType<typeof request>>) => void, RegExp]> = [
    [
      'an inclusion proof hash',
      (r) => (r.records[150]!.proof[2] = flipB64(r.records[150]!.proof[2]!)),
      /record 150/,
    ],
    ['a leaf hash', (r) => (r.records[3]!.leafHash = leafHash(4)), /record 3/],
    ['a truncated consistency proof', (r) => r.consistency.at(-2)!.proof.pop(), /consistency/],
    [
      'a receipt index',
      (r) => (r.receipts[2]!.text = r.receipts[2]!.text.replace('index 128', 'index 129')),
      /receipt 2/,
    ],
    [
      'a checkpoint size',
      (r) => (r.checkpoints[2] = r.checkpoints[2]!.replace('\n100\n', '\n101\n')),
      /checkpoint 2.*invalid signature/,
    ],
    ['a missing witness key', (r) => (r.witnesses = []), /checkpoint 0: 0 cosignatures/],
  ];
  for (const [what, tamper, error] of tampered) {
    test(`Go refuses ${what}`, async () => {
      const r = await request();
      tamper(r);
      const run = await runChecker(binary, r);
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, error);
    });
  }

  test('Go refuses a tampered tile and a tampered entry bundle', async () => {
    for (const path of ['tile/0/001.p/44', 'tile/entries/000']) {
      const bytes = readFileSync(join(tilesDir, path));
      bytes[40]! ^= 1;
      overrides.set(path, bytes);
      const run = await runChecker(binary, await request());
      overrides.delete(path);
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, /tiles of checkpoint \d/);
    }
  });
});

function b64(hashes: Buffer[]): string[] {
  return hashes.map((h) => h.toString('base64'));
}

function flipB64(hash: string): string {
  const bytes = Buffer.from(hash, 'base64');
  bytes[0]! ^= 1;
  return bytes.toString('base64');
}
