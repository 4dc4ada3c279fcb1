/**
 * A hash reader over a log's tiles that trusts nothing it fetched (Go's `tlog.TileHashReader`):
 * for each read it fetches the tiles holding the asked hashes and their parent tiles, checks that
 * the tiles of the right edge hash to the signed root and every other tile to its hash in its
 * parent, and only then answers. So every hash it answers is proven part of that tree.
 */
import {
  hashesEqual,
  HASH_SIZE,
  nodeHash,
  splitStoredHashIndex,
  storedHashIndex,
  TILE_HEIGHT,
  TILE_WIDTH,
} from '../tlog/index.js';
import type { HashReader, Tile } from '../tlog/index.js';
import { MonitorError } from './monitor-error.js';

/** The tree the tiles must prove: its size and signed root. */
export interface SignedTree {
  size: number;
  root: Uint8Array;
}

/** Fetches tiles (their bytes, `width` × 32 each, in the order asked). */
export type TileFetcher = (tiles: readonly Tile[]) => Promise<readonly Uint8Array[]>;

/** The narrowest tile holding stored hash `index`, and where its hashes lie in that tile's data. */
function tileForIndex(index: number): { tile: Tile; start: number; end: number } {
  const split = splitStoredHashIndex(index);
  const tileLevel = Math.floor(split.level / TILE_HEIGHT);
  const inTile = split.level - tileLevel * TILE_HEIGHT;
  const span = 2 ** inTile;
  const tileIndex = Math.floor((split.n * span) / TILE_WIDTH);
  const n = split.n - (tileIndex * TILE_WIDTH) / span;
  const tile = { level: tileLevel, index: tileIndex, width: (n + 1) * span };
  return { tile, start: n * span * HASH_SIZE, end: (n + 1) * span * HASH_SIZE };
}

/** The hash of the complete subtree whose 2^k bottom hashes are `data`. */
function tileHash(data: Uint8Array): Uint8Array {
  if (data.length === HASH_SIZE) return data;
  const half = data.length / 2;
  return nodeHash(tileHash(data.subarray(0, half)), tileHash(data.subarray(half)));
}

/** The hash at stored `index` from the data of `tile`, which holds it (or a wider one). */
function hashFromTile(tile: Tile, data: Uint8Array, index: number): Uint8Array {
  const at = tileForIndex(index);
  if (at.tile.level !== tile.level || at.tile.index !== tile.index || tile.width < at.tile.width) {
    throw new MonitorError('inconsistent_tiles', `hash ${index} is not in tile ${key(tile)}`);
  }
  return tileHash(data.subarray(at.start, at.end));
}

/** `tile`'s k-th parent in the tiles of the tree of `size` leaves (undefined: there is none). */
function tileParent(tile: Tile, k: number, size: number): Tile | undefined {
  const level = tile.level + k;
  const index = Math.floor(tile.index / TILE_WIDTH ** k);
  const max = Math.floor(size / TILE_WIDTH ** level);
  if (index * TILE_WIDTH >= max) return undefined;
  return { level, index, width: Math.min(TILE_WIDTH, max - index * TILE_WIDTH) };
}

function key(tile: Tile): string {
  return `${tile.level}/${tile.index}/${tile.width}`;
}

/** Storage indexes of the complete subtrees covering the first `size` leaves, left to right. */
function rootIndexes(size: number): number[] {
  const out: number[] = [];
  let lo = 0;
  while (lo < size) {
    let level = 0;
    while (2 ** (level + 1) <= size - lo) level++;
    out.push(storedHashIndex(level, lo / 2 ** level));
    lo += 2 ** level;
  }
  return out;
}

/** The tiles to fetch for `indexes`, parents before children, with where each index is read. */
function plan(tree: SignedTree, indexes: readonly number[]) {
  const tiles: Tile[] = [];
  const order = new Map<string, number>();
  const add = (tile: Tile): number => {
    order.set(key(tile), tiles.length);
    tiles.push(tile);
    return tiles.length - 1;
  };
  const roots = rootIndexes(tree.size);
  const rootTiles = roots.map((x) => {
    const tile = tileParent(tileForIndex(x).tile, 0, tree.size)!;
    return order.get(key(tile)) ?? add(tile);
  });
  const rootCount = tiles.length;
  const limit = storedHashIndex(0, tree.size);
  const indexTiles = indexes.map((x) => {
    if (!Number.isSafeInteger(x) || x < 0 || x >= limit) {
      throw new MonitorError('inconsistent_tiles', `hash ${x} is not in the tree of ${tree.size}`);
    }
    const tile = tileForIndex(x).tile;
    // Up to the first parent already planned (that one is authenticated), then back down.
    let k = 0;
    while (!order.has(key(tileParent(tile, k, tree.size)!))) k++;
    if (k === 0) return order.get(key(tileParent(tile, 0, tree.size)!))!;
    let at = -1;
    for (k--; k >= 0; k--) {
      const parent = tileParent(tile, k, tree.size)!;
      // Only full tiles have parents; with a parent planned, this tile must be full.
      if (parent.width !== TILE_WIDTH) throw new Error(`tile math: ${key(parent)}`);
      at = add(parent);
    }
    return at;
  });
  return { tiles, order, roots, rootTiles, rootCount, indexTiles };
}

/** A {@link HashReader} over `fetch`'s tiles, every answer proven against `tree`'s root. */
export function tileHashReader(tree: SignedTree, fetch: TileFetcher): HashReader {
  return async (indexes) => {
    const p = plan(tree, indexes);
    const data = await fetch(p.tiles);
    p.tiles.forEach((tile, i) => {
      if (data[i]?.length !== tile.width * HASH_SIZE) {
        throw new MonitorError('inconsistent_tiles', `tile ${key(tile)} has the wrong length`);
      }
    });
    // The right edge's tiles first: they must hash to the signed root.
    const last = p.roots.length - 1;
    let root = hashFromTile(
      p.tiles[p.rootTiles[last]!]!,
      data[p.rootTiles[last]!]!,
      p.roots[last]!,
    );
    for (let i = last - 1; i >= 0; i--) {
      const j = p.rootTiles[i]!;
      root = nodeHash(hashFromTile(p.tiles[j]!, data[j]!, p.roots[i]!), root);
    }
    if (!hashesEqual(root, tree.root)) {
      throw new MonitorError('inconsistent_tiles', `tiles do not hash to the root of ${tree.size}`);
    }
    // Then every other tile against its hash in its parent, planned before it.
    for (let i = p.rootCount; i < p.tiles.length; i++) {
      const tile = p.tiles[i]!;
      const parent = tileParent(tile, 1, tree.size)!;
      const j = p.order.get(key(parent))!;
      const expected = hashFromTile(
        parent,
        data[j]!,
        storedHashIndex(parent.level * TILE_HEIGHT, tile.index),
      );
      if (!hashesEqual(expected, tileHash(data[i]!))) {
        throw new MonitorError(
          'inconsistent_tiles',
          `tile ${key(tile)} does not hash into its parent`,
        );
      }
    }
    return indexes.map((x, i) => {
      const j = p.indexTiles[i]!;
      return hashFromTile(p.tiles[j]!, data[j]!, x);
    });
  };
}
