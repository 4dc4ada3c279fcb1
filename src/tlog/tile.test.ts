import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryTree } from '../../test/support/tlog/memory-tree.js';
import { mth } from '../../test/support/tlog/reference.js';
import { decodeEntryBundle, encodeEntryBundle, eventEntryBundle } from './entry-bundle.js';
import { leafHash } from './hash.js';
import { entryBundlePath, parseTilePath, tilePath } from './tile.js';
import type { Tile } from './tile.js';
import { readTile, tileInTree, tilesOfTree, tilesToPublish } from './tiles.js';
import { TlogError } from './tlog-error.js';

const reason = (r: string) => (e: unknown) => e instanceof TlogError && e.reason === r;

test('tile paths as tlog-tiles writes them, and back', () => {
  assert.equal(tilePath({ level: 0, index: 1234067, width: 256 }), 'tile/0/x001/x234/067');
  assert.equal(tilePath({ level: 2, index: 1234067, width: 1 }), 'tile/2/x001/x234/067.p/1');
  assert.equal(tilePath({ level: 1, index: 0, width: 17 }), 'tile/1/000.p/17');
  assert.equal(tilePath({ level: 0, index: 1000, width: 256 }), 'tile/0/x001/000');
  assert.equal(entryBundlePath(5, 44), 'tile/entries/005.p/44');
  for (const path of ['tile/0/x001/x234/067', 'tile/63/999.p/255', 'tile/entries/x001/000']) {
    const address = parseTilePath(path);
    const back =
      address.kind === 'entries'
        ? entryBundlePath(address.index, address.width)
        : tilePath(address.tile);
    assert.equal(back, path);
  }
  assert.deepEqual(parseTilePath('tile/3/x001/x234/067.p/8'), {
    kind: 'hashes',
    tile: { level: 3, index: 1234067, width: 8 },
  });
});

test('malformed tile paths are refused', () => {
  for (const path of [
    'tile/0/1',
    'tile/00/001',
    'tile/64/001',
    'tile/-1/001',
    'tile/0/x000/001',
    'tile/0/001/002',
    'tile/0/x001',
    'tile/0/001.p/0',
    'tile/0/001.p/256',
    'tile/0/001.p/05',
    'tile/0/001.p/',
    'tile/data/001',
    'tile/8/0/001',
    'tile/0/',
    'tiles/0/001',
    'tile/entries.p/5',
    '/tile/0/001',
  ]) {
    assert.throws(() => parseTilePath(path), reason('malformed_tile_path'), path);
  }
});

test('the tiles of a tree follow the spec examples (sizes 70000 and 256)', () => {
  const tiles = tilesOfTree(70000);
  const at = (level: number) => tiles.filter((t) => t.level === level);
  assert.equal(at(0).filter((t) => t.width === 256).length, 273);
  assert.deepEqual(at(0).at(-1), { level: 0, index: 273, width: 112 });
  assert.deepEqual(at(1), [
    { level: 1, index: 0, width: 256 },
    { level: 1, index: 1, width: 17 },
  ]);
  assert.deepEqual(at(2), [{ level: 2, index: 0, width: 1 }]);
  assert.deepEqual(tilesOfTree(256), [
    { level: 0, index: 0, width: 256 },
    { level: 1, index: 0, width: 1 },
  ]);
  assert.deepEqual(tilesOfTree(0), []);
});

test('growing checkpoints publish each tile once, ending with exactly the tiles of the tree', () => {
  const sizes = [0, 1, 5, 255, 256, 300, 511, 513, 70000, 70001];
  const published = new Map<string, Tile>();
  for (let i = 1; i < sizes.length; i++) {
    for (const tile of tilesToPublish(sizes[i - 1]!, sizes[i]!)) {
      const path = tilePath(tile);
      assert.equal(published.has(path), false, `${path} twice`);
      assert.equal(tileInTree(tile, sizes[i]!), true, path);
      published.set(path, tile);
    }
  }
  for (const tile of tilesOfTree(70001)) assert.ok(published.has(tilePath(tile)), tilePath(tile));
  assert.deepEqual(tilesToPublish(300, 300), []);
  assert.throws(() => tilesToPublish(5, 4), reason('out_of_range'));
});

test('tile bytes are the leaf hashes at level 0 and full-tile subtree roots at level 1', async () => {
  const size = 600;
  const tree = await memoryTree(size);
  const leaves = Array.from({ length: size }, (_, i) => Buffer.from(`leaf ${i}`));
  const level0 = await readTile({ level: 0, index: 2, width: 88 }, tree.reader);
  assert.deepEqual(level0, Buffer.concat(leaves.slice(512, 600).map((l) => leafHash(l))));
  const level1 = await readTile({ level: 1, index: 0, width: 2 }, tree.reader);
  assert.deepEqual(level1, Buffer.concat([mth(leaves.slice(0, 256)), mth(leaves.slice(256, 512))]));
});

test('entry bundles are uint16 length-prefixed entries; erx entries are raw event hashes', () => {
  const hashes = ['00'.repeat(32), 'ff'.repeat(32)];
  const bundle = eventEntryBundle(hashes);
  assert.equal(bundle.length, 2 * 34);
  assert.equal(bundle.readUInt16BE(0), 32);
  assert.deepEqual(decodeEntryBundle(bundle), [Buffer.alloc(32), Buffer.alloc(32, 0xff)]);
  const mixed = [Buffer.alloc(0), Buffer.from('abc'), Buffer.alloc(0xffff, 1)];
  assert.deepEqual(decodeEntryBundle(encodeEntryBundle(mixed)), mixed);
  for (const bad of [bundle.subarray(0, 67), bundle.subarray(0, 35), Buffer.alloc(0)]) {
    assert.throws(() => decodeEntryBundle(bad), reason('malformed_entry_bundle'));
  }
  assert.throws(() => encodeEntryBundle([Buffer.alloc(0x10000)]), reason('malformed_entry_bundle'));
  assert.throws(
    () => encodeEntryBundle(Array.from({ length: 257 }, () => Buffer.alloc(1))),
    reason('malformed_entry_bundle'),
  );
  assert.throws(() => eventEntryBundle(['xyz']), reason('malformed_hash'));
});
