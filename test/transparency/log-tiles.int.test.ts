/**
 * The transparency log over HTTP (c2sp.org/tlog-tiles), on SQLite and on PostgreSQL in the
 * runner's second pass: the checkpoint opens with the served key and its root is RFC 6962's over
 * the leaves' entries (one-way commitments: no prescription id, actor or patient); every tile and entry bundle of a tree of 260 leaves is byte for byte what
 * RFC 6962's definitions give; full tiles are immutable, partial ones and the checkpoint short
 * lived; tiles outside the tree are 404 and paths tlog-tiles does not define 400, in erx's error
 * shape, without a token.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openLogIdentity } from '../../src/server/log-key.js';
import type { LeafRow } from '../../src/store/log.js';
import { decodeEntryBundle, ed25519NoteVerifier, openCheckpoint } from '../../src/tlog/index.js';
import { chainName, leafEntry, readChainedEntry } from '../../src/transparency/leaf-entry.js';
import { assertError } from '../support/e2e.js';
import { createEvents, grownLog, logLeaves } from '../support/log-events.js';
import { useTestServer } from '../support/server.js';
import { mth } from '../support/tlog/reference.js';

const LEAVES = 260;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Tile `index` of `width` at level 0 or 1 from the leaves, by RFC 6962's MTH alone. */
function expectedTile(leaves: Buffer[], level: number, index: number, width: number): Buffer {
  const span = 256 ** level;
  const hashes: Buffer[] = [];
  for (let i = index * 256; i < index * 256 + width; i++) {
    hashes.push(mth(leaves.slice(i * span, (i + 1) * span)));
  }
  return Buffer.concat(hashes);
}

/** An entry bundle written out: each entry's big-endian uint16 length, then its bytes. */
function expectedBundle(leaves: Buffer[], index: number, width: number): Buffer {
  const parts = leaves.slice(index * 256, index * 256 + width).map((leaf) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(leaf.length);
    return Buffer.concat([length, leaf]);
  });
  return Buffer.concat(parts);
}

describe('transparency log tiles over HTTP', () => {
  const server = useTestServer();
  let leaves: Buffer[] = [];
  let rows: LeafRow[] = [];
  let size = 0;

  before(async () => {
    await createEvents(server, LEAVES);
    size = await grownLog(server);
    rows = await logLeaves(server, size);
    leaves = rows.map(leafEntry);
  });

  it('holds one-way commitments only: no prescription id, actor or patient in any entry', async () => {
    const bundles: Buffer[] = [];
    for (let t = 0; t * 256 < size; t++) {
      const width = Math.min(256, size - t * 256);
      const suffix = width === 256 ? '' : `.p/${width}`;
      const answer = await server.request(
        'GET',
        `/log/tile/entries/${String(t).padStart(3, '0')}${suffix}`,
      );
      assert.equal(answer.status, 200, answer.text);
      bundles.push(answer.bytes);
    }
    const entries = bundles.flatMap((b) => decodeEntryBundle(b));
    assert.equal(entries.length, size);
    const { store } = server.runtime;
    const ids = await store.prescriptions.ids(undefined, 1_000);
    assert.ok(ids.length >= LEAVES);
    const names = new Set(ids.map((id) => chainName(id).toString('hex')));
    const chained = entries.map((e, i) => {
      const leaf = readChainedEntry(e);
      assert.ok(leaf, `entry ${i} is a chained entry (77 bytes: version, name, place, hash, prev)`);
      return leaf;
    });
    // Every entry names a chain by its commitment, which is none of the ids it could be read as.
    for (const leaf of chained) assert.ok(names.has(Buffer.from(leaf.chain).toString('hex')));
    const served = Buffer.concat(bundles);
    const chain = (await store.readChain(ids[0]!))?.state;
    const body = JSON.parse(chain!.events[0]!.body) as Record<string, unknown>;
    const clear = [
      ...ids,
      server.doctor.sub,
      String(body.actor),
      String(body.actor_name),
      'Patient',
      'FName',
      'LName',
      'BDt',
    ];
    for (const text of clear) {
      assert.equal(served.includes(Buffer.from(text)), false, `the bundles hold ${text}`);
    }
    const tiles = await server.request('GET', '/log/tile/0/000');
    for (const id of ids) assert.equal(tiles.bytes.includes(Buffer.from(id)), false);
  });

  it('serves the checkpoint, signed by the served key, over the events’ hashes', async () => {
    const key = await server.request('GET', '/log/key');
    assert.equal(key.status, 200, key.text);
    assert.equal(key.headers.get('content-type'), 'text/plain; charset=utf-8');
    const { config } = server.runtime;
    assert.equal(key.text, `${openLogIdentity(server.dataDir, config.logOrigin).verifierKey}\n`);

    const answer = await server.request('GET', '/log/checkpoint');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(answer.headers.get('cache-control'), 'no-cache');
    const verifier = ed25519NoteVerifier(key.text.trim());
    const opened = openCheckpoint(answer.text, { origin: config.logOrigin, log: [verifier] });
    assert.equal(opened.checkpoint.size, size);
    assert.ok(size >= LEAVES);
    assert.deepEqual(opened.checkpoint.root, mth(leaves));
  });

  it('serves every tile and entry bundle of the tree as RFC 6962 defines them', async () => {
    const full0 = Math.floor(size / 256);
    const paths: { path: string; bytes: Buffer; full: boolean }[] = [];
    for (let n = 0; n < full0; n++) {
      const index = String(n).padStart(3, '0');
      paths.push({ path: `0/${index}`, bytes: expectedTile(leaves, 0, n, 256), full: true });
      paths.push({ path: `entries/${index}`, bytes: expectedBundle(leaves, n, 256), full: true });
    }
    const w0 = size % 256;
    const last = String(full0).padStart(3, '0');
    if (w0 > 0) {
      paths.push({
        path: `0/${last}.p/${w0}`,
        bytes: expectedTile(leaves, 0, full0, w0),
        full: false,
      });
      paths.push({
        path: `entries/${last}.p/${w0}`,
        bytes: expectedBundle(leaves, full0, w0),
        full: false,
      });
    }
    paths.push({ path: `1/000.p/${full0}`, bytes: expectedTile(leaves, 1, 0, full0), full: false });
    // A partial tile of an older, smaller tree is still inside this one.
    paths.push({ path: '0/000.p/7', bytes: expectedTile(leaves, 0, 0, 7), full: false });
    paths.push({ path: 'entries/000.p/7', bytes: expectedBundle(leaves, 0, 7), full: false });
    for (const { path, bytes, full } of paths) {
      const answer = await server.request('GET', `/log/tile/${path}`);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      assert.equal(answer.headers.get('content-type'), 'application/octet-stream', path);
      assert.deepEqual(answer.bytes, bytes, path);
      const cache = answer.headers.get('cache-control');
      if (full) assert.equal(cache, IMMUTABLE, path);
      else assert.equal(cache, 'public, max-age=60', path);
    }
  });

  it('answers 404 for tiles outside the newest tree', async () => {
    const full0 = Math.floor(size / 256);
    const next = String(full0).padStart(3, '0');
    for (const path of [
      `0/${next}`,
      `0/${next}.p/${(size % 256) + 1}`,
      `entries/${next}`,
      `entries/${String(full0 + 1).padStart(3, '0')}.p/1`,
      '1/000',
      `1/000.p/${full0 + 1}`,
      '2/000.p/1',
      '0/x001/000',
      '63/000.p/1',
    ]) {
      const answer = await server.request('GET', `/log/tile/${path}`);
      assertError(answer, 404, 'not_found', 'tile_not_found');
      assert.equal(answer.headers.get('cache-control'), 'no-cache', path);
    }
  });

  it('answers 400 for paths tlog-tiles does not define', async () => {
    for (const path of [
      '0/0',
      '0/0000',
      '00/000',
      '64/000',
      '0/x000/001',
      '0/001/000',
      '0/000.p/0',
      '0/000.p/256',
      '0/000.p/07',
      '0/000.p',
      'entries/abc',
      'entries',
      'x/000',
      '-1/000',
      '0/000/',
    ]) {
      const answer = await server.request('GET', `/log/tile/${path}`);
      assertError(answer, 400, 'bad_request', 'tlog_malformed_tile_path');
    }
  });

  it('needs no token, and refuses an inactive one as every route does', async () => {
    const answer = await server.request('GET', '/log/checkpoint', { token: 'not-a-token' });
    assertError(answer, 401, 'unauthorized');
  });
});

describe('transparency log tiles under the anonymous rate limit', () => {
  // The budget covers the four token calls of the server's setup, which come from the same
  // address. The readers below ask for 3 more than two windows' budgets: a window that ends
  // during the burst lets through at most the rest of its budget and the next one's.
  const LIMIT = 5;
  const server = useTestServer({ env: { ERX_RATE_LIMIT_ANON: String(LIMIT) } });

  it('holds anonymous readers to the per-address limit', async () => {
    const paths = ['/log/key', '/log/tile/0/000', '/log/checkpoint', '/log/tile/entries/000'];
    const answers = await Promise.all(
      Array.from({ length: 2 * LIMIT + 3 }, (_, i) =>
        server.request('GET', paths[i % paths.length]!),
      ),
    );
    const refused = answers.filter((a) => a.status === 429);
    assert.ok(refused.length >= 3, answers.map((a) => a.status).join());
    assertError(refused[0]!, 429, 'too_many_requests');
    assert.ok(Number(refused[0]!.headers.get('retry-after')) >= 1);
  });
});
