/**
 * The tiles and entry bundles of the transparency log as served (c2sp.org/tlog-tiles), read from
 * the store's stored hashes and the leaves as the log took them in (never from the events rows as
 * they stand now). Only what lies inside the newest checkpoint's tree exists:
 * a full tile once its 256 hashes are in it, a partial one of width W while the tree holds at least
 * W hashes at that tile's place (every older checkpoint's partial tiles stay readable). One read of
 * at most 256 hashes or 256 events per resource.
 */
import { ErxError } from '../errors.js';
import type { LeafRow } from '../store/log.js';
import { encodeEntryBundle, parseTilePath, readTile, TILE_WIDTH } from '../tlog/index.js';
import type { HashReader } from '../tlog/index.js';
import { leafEntry } from '../transparency/leaf-entry.js';

/** What the resources are read from (the store's `log`). */
export interface LogResourceSource {
  readHashes(indexes: readonly number[]): Promise<Uint8Array[]>;
  readLeafRows(from: number, limit: number): Promise<LeafRow[]>;
}

/** A tile or entry bundle: its bytes, and whether it is full (and so never changes). */
export interface LogResource {
  bytes: Buffer;
  full: boolean;
}

function notFound(detail: unknown): ErxError {
  return new ErxError('not_found', 'No such tile in the log’s current tree.', {
    causeCode: 'tile_not_found',
    detail,
  });
}

/** True when the tree of `size` leaves holds `width` hashes from tile `index` on at `level`. */
function inTree(size: number, level: number, index: number, width: number): boolean {
  return index * TILE_WIDTH + width <= Math.floor(size / TILE_WIDTH ** level);
}

/**
 * The resource at `path` (`tile/...`, relative to the log's prefix) in the tree of `size` leaves;
 * throws `bad_request` for a path tlog-tiles does not define, `not_found` for one outside the tree.
 */
export async function readLogResource(
  source: LogResourceSource,
  size: number,
  path: string,
): Promise<LogResource> {
  const address = parseTilePath(path);
  if (address.kind === 'hashes') {
    const { level, index, width } = address.tile;
    if (!inTree(size, level, index, width)) throw notFound(path);
    const reader: HashReader = (indexes) => source.readHashes(indexes);
    return { bytes: await readTile(address.tile, reader), full: width === TILE_WIDTH };
  }
  const { index, width } = address;
  if (!inTree(size, 0, index, width)) throw notFound(path);
  const after = index * TILE_WIDTH;
  const leaves = await source.readLeafRows(after, width);
  if (leaves.length !== width || leaves.some((leaf, i) => leaf.index !== after + i)) {
    throw new ErxError('internal_error', 'The log’s entries cannot be read.', {
      detail: `entries ${after + 1}..${after + width}: ${leaves.length} read`,
    });
  }
  return {
    bytes: encodeEntryBundle(leaves.map(leafEntry)),
    full: width === TILE_WIDTH,
  };
}
