/**
 * The monitor over logs held in memory: the tile reader answers what the stored hashes hold and
 * refuses tiles that do not hash to the signed root or into their parents; a run passes growth
 * across tile levels, and reports a rollback, a fork of the same size, a tree that does not extend
 * the old one, a rewritten tile or entry and a foreign signature, each naming both sizes.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { MemoryTree } from '../../test/support/tlog/memory-tree.js';
import {
  ed25519NoteSigner,
  ed25519PrivateKeyFromSeed,
  ed25519VerifierKey,
  encodeEntryBundle,
  entryBundlePath,
  formatCheckpoint,
  signNote,
  storedHashIndex,
  tilePath,
  readTile,
  treeHash,
} from '../tlog/index.js';
import type { Tile } from '../tlog/index.js';
import type { LogClient } from './log-client.js';
import { MonitorError } from './monitor-error.js';
import type { MonitorReason } from './monitor-error.js';
import { monitorLog } from './monitor-log.js';
import { readMonitorState, writeMonitorState } from './monitor-state.js';
import type { MonitorState } from './monitor-state.js';
import { tileHashReader } from './tile-hash-reader.js';

const ORIGIN = 'erx.test/log';
const key = ed25519PrivateKeyFromSeed(createHash('sha256').update('monitor test key').digest());
const VKEY = ed25519VerifierKey(ORIGIN, key);
const signer = ed25519NoteSigner(ORIGIN, key);

/** A log in memory: its leaves' data, its tree, and tiles or bundles replaced by a test. */
class MemoryLog {
  readonly data: Buffer[] = [];
  readonly tree = new MemoryTree();
  readonly replaced = new Map<string, Buffer>();

  async grow(to: number, salt = ''): Promise<this> {
    while (this.data.length < to) {
      const leaf = createHash('sha256').update(`${salt}event ${this.data.length}`).digest();
      this.data.push(leaf);
      await this.tree.append(leaf);
    }
    return this;
  }

  /** A client that sees the tree of `size` leaves under a checkpoint signed by `by`. */
  async client(size: number, by = signer, root?: Buffer): Promise<LogClient> {
    const treeRoot = root ?? (await treeHash(size, this.tree.reader));
    const note = await signNote(formatCheckpoint({ origin: ORIGIN, size, root: treeRoot }), [by]);
    return {
      checkpoint: async () => note,
      key: async () => VKEY,
      tiles: (tiles: readonly Tile[]) =>
        Promise.all(
          tiles.map(
            async (t) => this.replaced.get(tilePath(t)) ?? (await readTile(t, this.tree.reader)),
          ),
        ),
      entries: async (index, width) =>
        this.replaced.get(entryBundlePath(index, width)) ??
        encodeEntryBundle(this.data.slice(index * 256, index * 256 + width)),
    };
  }
}

/** Asserts that `run` fails for `reason` with a detail naming both sizes. */
async function refuses(
  run: Promise<unknown>,
  reason: MonitorReason,
  newSize: number,
  oldSize: number,
): Promise<void> {
  await assert.rejects(run, (error: unknown) => {
    assert.ok(error instanceof MonitorError, String(error));
    assert.equal(error.reason, reason);
    assert.match(String(error.detail), new RegExp(`new tree of size ${newSize}\\b`));
    assert.match(String(error.detail), new RegExp(`last verified tree of size ${oldSize}\\b`));
    return true;
  });
}

describe('tile hash reader', () => {
  let log: MemoryLog;
  before(async () => {
    log = await new MemoryLog().grow(70_000);
  });

  it('answers the stored hashes of a tree across three tile levels, proven by its root', async () => {
    for (const size of [1, 255, 256, 257, 65_536, 65_537, 70_000]) {
      const client = await log.client(size);
      const root = await treeHash(size, log.tree.reader);
      const reader = tileHashReader({ size, root }, client.tiles);
      const indexes = [0, Math.floor(size / 3), size - 1].map((i) => storedHashIndex(0, i));
      if (size >= 256) indexes.push(storedHashIndex(8, 0));
      assert.deepEqual(await reader(indexes), await log.tree.reader(indexes), `size ${size}`);
      assert.deepEqual(await treeHash(size, reader), root);
    }
  });

  it('refuses a tile that does not hash to the root or into its parent', async () => {
    const size = 70_000;
    const root = await treeHash(size, log.tree.reader);
    for (const path of ['tile/0/273.p/112', 'tile/0/000', 'tile/1/000']) {
      const replaced = new MemoryLog();
      Object.assign(replaced, { data: log.data, tree: log.tree });
      const client = await replaced.client(size);
      const fetch = client.tiles;
      const tiles: typeof fetch = async (wanted) => {
        const data = await fetch(wanted);
        return data.map((bytes, i) => {
          if (tilePath(wanted[i]!) !== path) return bytes;
          const copy = Buffer.from(bytes);
          copy[copy.length - 1]! ^= 1;
          return copy;
        });
      };
      const reader = tileHashReader({ size, root }, tiles);
      await assert.rejects(
        reader([storedHashIndex(0, 0), storedHashIndex(0, size - 1)]),
        (e: unknown) => e instanceof MonitorError && e.reason === 'inconsistent_tiles',
        path,
      );
    }
  });
});

describe('a monitor run', () => {
  it('trusts the served key on first use only, and passes growth across tile levels', async () => {
    const log = await new MemoryLog().grow(70_000);
    const first = await monitorLog({ client: await log.client(300), state: undefined });
    assert.equal(first.keySource, 'fetched');
    assert.equal(first.state.key, VKEY);
    assert.equal(first.state.size, 300);
    assert.equal(first.previous, undefined);
    const second = await monitorLog({ client: await log.client(70_000), state: first.state });
    assert.equal(second.keySource, 'state');
    assert.deepEqual(second.previous, { size: 300, root: first.state.root });
    assert.equal(second.state.size, 70_000);
    const same = await monitorLog({ client: await log.client(70_000), state: second.state });
    assert.equal(same.state.root, second.state.root);
  });

  it('reports a rollback, a fork of the same size and a tree that does not extend', async () => {
    const log = await new MemoryLog().grow(400);
    const seen = (await monitorLog({ client: await log.client(300), state: undefined })).state;
    await refuses(monitorLog({ client: await log.client(299), state: seen }), 'rollback', 299, 300);
    const forged = await log.client(300, signer, randomBytes(32));
    await refuses(monitorLog({ client: forged, state: seen }), 'fork', 300, 300);
    // Another history: leaf 3 differs, all of it signed by the log's key and its tiles honest.
    const other = await new MemoryLog().grow(3);
    await other.grow(400, 'other ');
    await refuses(monitorLog({ client: await other.client(400), state: seen }), 'fork', 400, 300);
  });

  it('reports a rewritten tile and a rewritten entry', async () => {
    const log = await new MemoryLog().grow(600);
    const seen = (await monitorLog({ client: await log.client(300), state: undefined })).state;
    // Leaf 257: inside the tree seen before, in a tile the new entries are read through.
    const tile = Buffer.from(await readTile({ level: 0, index: 1, width: 256 }, log.tree.reader));
    tile[40]! ^= 1;
    log.replaced.set('tile/0/001', tile);
    await refuses(
      monitorLog({ client: await log.client(600), state: seen }),
      'inconsistent_tiles',
      600,
      300,
    );
    log.replaced.clear();
    const entries = log.data.slice(256, 512).map((d) => Buffer.from(d));
    entries[310 - 256]![0]! ^= 1;
    log.replaced.set('tile/entries/001', encodeEntryBundle(entries));
    await refuses(
      monitorLog({ client: await log.client(600), state: seen }),
      'rewritten_entry',
      600,
      300,
    );
  });

  it('refuses a checkpoint another key signed, and a malformed pinned key', async () => {
    const log = await new MemoryLog().grow(10);
    const other = ed25519NoteSigner(ORIGIN, ed25519PrivateKeyFromSeed(randomBytes(32)));
    await assert.rejects(
      monitorLog({ client: await log.client(10, other), state: undefined, key: VKEY }),
      (e: unknown) => e instanceof MonitorError && e.reason === 'bad_checkpoint',
    );
    await assert.rejects(
      monitorLog({ client: await log.client(10), state: undefined, key: 'not+a+key' }),
      (e: unknown) => e instanceof MonitorError && e.reason === 'bad_state',
    );
  });
});

describe('the monitor state file', () => {
  it('is written whole and read back; a malformed one is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erx-monitor-state-'));
    try {
      const path = join(dir, 'state.json');
      assert.equal(readMonitorState(path), undefined);
      const state: MonitorState = {
        version: 1,
        key: VKEY,
        size: 7,
        root: Buffer.alloc(32, 7).toString('base64'),
        note: 'n',
        checkedAt: new Date(0).toISOString(),
      };
      writeMonitorState(path, state);
      writeMonitorState(path, { ...state, size: 8 });
      assert.deepEqual(readMonitorState(path), { ...state, size: 8 });
      for (const text of ['{', '{"version":1}', JSON.stringify({ ...state, root: 'AA==' })]) {
        writeFileSync(path, text);
        assert.throws(
          () => readMonitorState(path),
          (e: unknown) => e instanceof MonitorError && e.reason === 'bad_state',
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
