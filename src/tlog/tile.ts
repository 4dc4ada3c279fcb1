/**
 * Tile coordinates and paths of c2sp.org/tlog-tiles: tiles of height 8 (256 hashes wide), served
 * at `tile/<L>/<N>[.p/<W>]`, entry bundles at `tile/entries/<N>[.p/<W>]`, with N written in
 * 3-digit path elements, all but the last prefixed `x` (1234067 → `x001/x234/067`).
 */
import { TlogError } from './tlog-error.js';
import { isIndex } from './tree-math.js';

/** Levels of the tree one tile spans. */
export const TILE_HEIGHT = 8;
/** Hashes in a full tile (entries in a full bundle). */
export const TILE_WIDTH = 256;
const MAX_LEVEL = 63;

/** A hash tile: `width` hashes at tree level 8·`level`, from hash `index`·256 on. */
export interface Tile {
  level: number;
  index: number;
  /** 1..256; 256 is a full tile, less a partial one. */
  width: number;
}

/** What a tile path names. */
export type TileAddress =
  { kind: 'hashes'; tile: Tile } | { kind: 'entries'; index: number; width: number };

function isWidth(width: number): boolean {
  return Number.isInteger(width) && width >= 1 && width <= TILE_WIDTH;
}

/** `x001/x234/067` for 1234067. */
function indexPath(index: number): string {
  let n = index;
  let path = String(n % 1000).padStart(3, '0');
  while (n >= 1000) {
    n = Math.floor(n / 1000);
    path = `x${String(n % 1000).padStart(3, '0')}/${path}`;
  }
  return path;
}

function suffix(width: number): string {
  return width === TILE_WIDTH ? '' : `.p/${width}`;
}

/** The path of a hash tile, relative to the log's prefix. */
export function tilePath(tile: Tile): string {
  const { level, index, width } = tile;
  if (
    !Number.isInteger(level) ||
    level < 0 ||
    level > MAX_LEVEL ||
    !isIndex(index) ||
    !isWidth(width)
  ) {
    throw new TlogError('malformed_tile_path', tile);
  }
  return `tile/${level}/${indexPath(index)}${suffix(width)}`;
}

/** The path of the entry bundle `index` holding `width` entries. */
export function entryBundlePath(index: number, width: number): string {
  if (!isIndex(index) || !isWidth(width))
    throw new TlogError('malformed_tile_path', { index, width });
  return `tile/entries/${indexPath(index)}${suffix(width)}`;
}

function isDigits(text: string, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Parses a tile or entry bundle path (relative to the prefix); throws `malformed_tile_path`. */
export function parseTilePath(path: string): TileAddress {
  const parts = path.split('/');
  if (parts.length < 3 || parts[0] !== 'tile') throw new TlogError('malformed_tile_path', path);
  let width = TILE_WIDTH;
  const last = parts.length - 1;
  if (parts[last - 1]!.endsWith('.p')) {
    const w = parts[last]!;
    width = Number(w);
    if (
      w.length === 0 ||
      w.length > 3 ||
      w[0] === '0' ||
      !isDigits(w, w.length) ||
      width >= TILE_WIDTH
    ) {
      throw new TlogError('malformed_tile_path', path);
    }
    parts[last - 1] = parts[last - 1]!.slice(0, -2);
    parts.pop();
  }
  let index = 0;
  const elements = parts.slice(2);
  elements.forEach((element, i) => {
    const digits = i < elements.length - 1 ? (element[0] === 'x' ? element.slice(1) : '') : element;
    if (!isDigits(digits, 3)) throw new TlogError('malformed_tile_path', path);
    index = index * 1000 + Number(digits);
  });
  if (elements.length === 0 || !Number.isSafeInteger(index))
    throw new TlogError('malformed_tile_path', path);
  const levelText = parts[1]!;
  let address: TileAddress;
  if (levelText === 'entries') address = { kind: 'entries', index, width };
  else {
    const level = Number(levelText);
    if (!isDigits(levelText, levelText.length) || !(level <= MAX_LEVEL)) {
      throw new TlogError('malformed_tile_path', path);
    }
    address = { kind: 'hashes', tile: { level, index, width } };
  }
  // One path per tile: no leading zeros in the level, no `x000/` elements.
  const canonical =
    address.kind === 'entries' ? entryBundlePath(index, width) : tilePath(address.tile);
  if (canonical !== path) throw new TlogError('malformed_tile_path', path);
  return address;
}
