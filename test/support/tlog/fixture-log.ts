/**
 * A small transparency log built with src/tlog as erx will run it: event hashes as leaves, signed
 * and cosigned checkpoints at a few sizes, and the tiles and entry bundles of each checkpoint
 * written to a directory in the c2sp.org/tlog-tiles layout.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256Hex } from '../../../src/ledger/hash.js';
import { formatCheckpoint } from '../../../src/tlog/checkpoint.js';
import { cosignerVerifierKey, ed25519Cosigner } from '../../../src/tlog/cosignature.js';
import { ed25519NoteSigner, ed25519VerifierKey } from '../../../src/tlog/ed25519-note.js';
import { eventEntryBundle } from '../../../src/tlog/entry-bundle.js';
import { eventLeafHash } from '../../../src/tlog/hash.js';
import { signNote } from '../../../src/tlog/note.js';
import { entryBundlePath, tilePath, TILE_WIDTH } from '../../../src/tlog/tile.js';
import { readTile, tilesToPublish } from '../../../src/tlog/tiles.js';
import { treeHash } from '../../../src/tlog/tree-hash.js';
import { MemoryTree } from './memory-tree.js';

export const FIXTURE_ORIGIN = 'erx.example.ch/log';
export const FIXTURE_WITNESS = 'witness.example/w1';

/** The log, its keys and its checkpoints. */
export interface FixtureLog {
  tree: MemoryTree;
  /** Lowercase hex event hashes, leaf i = eventHashes[i]. */
  eventHashes: string[];
  logVkey: string;
  witnessVkey: string;
  /** Signed (and cosigned) checkpoint notes, one per size. */
  checkpoints: { size: number; root: Buffer; note: string }[];
}

/** Builds the log of `sizes.at(-1)` events with checkpoints at `sizes`, tiles under `dir`. */
export async function fixtureLog(sizes: readonly number[], dir: string): Promise<FixtureLog> {
  const logKey = generateKeyPairSync('ed25519').privateKey;
  const witnessKey = generateKeyPairSync('ed25519').privateKey;
  const signers = [
    ed25519NoteSigner(FIXTURE_ORIGIN, logKey),
    ed25519Cosigner(FIXTURE_WITNESS, witnessKey, () => 1767225600),
  ];
  const tree = new MemoryTree();
  const eventHashes: string[] = [];
  const checkpoints: FixtureLog['checkpoints'] = [];
  const write = (path: string, bytes: Buffer) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  };
  let previous = 0;
  for (const size of sizes) {
    while (tree.size < size) {
      const hex = sha256Hex(`event ${tree.size}`);
      eventHashes.push(hex);
      await tree.appendHash(eventLeafHash(hex));
    }
    const root = await treeHash(size, tree.reader);
    const note = await signNote(formatCheckpoint({ origin: FIXTURE_ORIGIN, size, root }), signers);
    checkpoints.push({ size, root, note });
    for (const tile of tilesToPublish(previous, size)) {
      write(tilePath(tile), await readTile(tile, tree.reader));
      if (tile.level === 0) {
        const start = tile.index * TILE_WIDTH;
        const bundle = eventEntryBundle(eventHashes.slice(start, start + tile.width));
        write(entryBundlePath(tile.index, tile.width), bundle);
      }
    }
    previous = size;
  }
  return {
    tree,
    eventHashes,
    logVkey: ed25519VerifierKey(FIXTURE_ORIGIN, logKey),
    witnessVkey: cosignerVerifierKey(FIXTURE_WITNESS, witnessKey),
    checkpoints,
  };
}
