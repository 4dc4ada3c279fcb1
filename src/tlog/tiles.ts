/**
 * Which tiles a tree has and what they hold (c2sp.org/tlog-tiles): the tiles to publish when a
 * checkpoint grows the tree, and a tile's bytes read from the stored hashes (Go's
 * `tlog.ReadTileData`).
 */
import { readHashes } from './hash-reader.js';
import type { HashReader } from './hash-reader.js';
import { storedHashIndex } from './stored-hash-index.js';
import type { Tile } from './tile.js';
import { TILE_HEIGHT, TILE_WIDTH } from './tile.js';
import { TlogError } from './tlog-error.js';
import { isIndex } from './tree-math.js';

/** Hashes (or entries) the tree of `size` leaves has at tile level `level`. */
function hashesAtLevel(size: number, level: number): number {
  return Math.floor(size / TILE_WIDTH ** level);
}

/**
 * The tiles to publish when the tree grows from `oldSize` to `newSize` leaves (both checkpoint
 * sizes): the full tiles completed since, and at each level the partial tile of `newSize`.
 * Entry bundles follow the level 0 tiles (same index and width).
 */
export function tilesToPublish(oldSize: number, newSize: number): Tile[] {
  if (!isIndex(oldSize) || !isIndex(newSize) || oldSize > newSize) {
    throw new TlogError('out_of_range', `tiles from ${oldSize} to ${newSize}`);
  }
  const tiles: Tile[] = [];
  for (let level = 0; hashesAtLevel(newSize, level) > 0; level++) {
    const oldN = hashesAtLevel(oldSize, level);
    const newN = hashesAtLevel(newSize, level);
    for (let n = Math.floor(oldN / TILE_WIDTH); n < Math.floor(newN / TILE_WIDTH); n++) {
      tiles.push({ level, index: n, width: TILE_WIDTH });
    }
    const width = newN % TILE_WIDTH;
    if (width > 0 && newN !== oldN)
      tiles.push({ level, index: Math.floor(newN / TILE_WIDTH), width });
  }
  return tiles;
}

/** The tiles a client reads for the tree of `size` leaves: every full tile and each partial. */
export function tilesOfTree(size: number): Tile[] {
  return tilesToPublish(0, size);
}

/** True when `tile` exists in the tree of `size` leaves (a partial one only at its exact width). */
export function tileInTree(tile: Tile, size: number): boolean {
  const n = hashesAtLevel(size, tile.level);
  const end = tile.index * TILE_WIDTH + tile.width;
  return end <= n && (tile.width === TILE_WIDTH || end === n);
}

/** The storage indexes of the hashes a tile holds, in tile order. */
export function tileHashIndexes(tile: Tile): number[] {
  const start = tile.index * TILE_WIDTH;
  const indexes: number[] = [];
  for (let i = 0; i < tile.width; i++)
    indexes.push(storedHashIndex(TILE_HEIGHT * tile.level, start + i));
  return indexes;
}

/** The bytes of `tile`: its hashes concatenated (width × 32 bytes). */
export async function readTile(tile: Tile, reader: HashReader): Promise<Buffer> {
  return Buffer.concat(await readHashes(reader, tileHashIndexes(tile)));
}
