/**
 * One run of `erx log monitor`: fetch the log's newest checkpoint, verify its signature with the
 * trusted key, prove with the log's own tiles (each authenticated against the signed root) that
 * its tree extends the one verified last time, and check that the entries added since hash to
 * their leaves and that each follows the leaf of its chain it names (`./chain-places.ts`). Any failure names the sizes of both trees.
 */
import {
  checkConsistency,
  decodeBase64,
  decodeEntryBundle,
  ed25519NoteVerifier,
  encodeBase64,
  hashesEqual,
  leafHash,
  openCheckpoint,
  proveConsistency,
  storedHashIndex,
  TILE_WIDTH,
  tilePath,
  treeHash,
} from '../tlog/index.js';
import type { HashReader, NoteVerifier, Tile } from '../tlog/index.js';
import type { LogClient } from './log-client.js';
import { ChainPlaces } from './chain-places.js';
import { MonitorError } from './monitor-error.js';
import type { MonitorState } from './monitor-state.js';
import { tileHashReader } from './tile-hash-reader.js';
import type { TileFetcher } from './tile-hash-reader.js';

/** Where the trusted key came from: `fetched` is trust on first use, to be pinned. */
export type KeySource = 'given' | 'state' | 'fetched';

/**
 * Most leaves whose entries one run checks (1,024 entry bundles): a run reads at most about twice
 * as many tiles and bundles, at most 1 MiB each and kept a few MiB in all, whatever size the log
 * claims; the rest is checked by the next runs, from where this one stopped.
 */
export const DEFAULT_MAX_LEAVES = 1024 * TILE_WIDTH;

/** What a run found: the state to keep and the tree verified before (none on the first run). */
export interface MonitorRun {
  state: MonitorState;
  previous: { size: number; root: string } | undefined;
  keySource: KeySource;
  /** Leaves whose entries remain to be checked by later runs (0: all were). */
  pending: number;
}

/** The monitor's inputs: the log, the state of the last run, a key given on the command line. */
export interface MonitorInput {
  client: LogClient;
  state: MonitorState | undefined;
  key?: string;
  now?: () => Date;
  /** Most leaves whose entries this run checks, rounded up to whole tiles ({@link DEFAULT_MAX_LEAVES}). */
  maxLeaves?: number;
  /** Checked between entry bundles: an aborted run ends as `interrupted`, its state not kept. */
  signal?: AbortSignal;
}

function verifierOf(vkey: string): NoteVerifier {
  try {
    return ed25519NoteVerifier(vkey);
  } catch {
    throw new MonitorError('bad_state', `not an Ed25519 verifier key: ${vkey}`);
  }
}

/** The tiles of one run fetched once each (a run reads the right edge's tiles many times). */
function remembering(fetch: TileFetcher): TileFetcher {
  const seen = new Map<string, Promise<Uint8Array>>();
  return async (tiles: readonly Tile[]) => {
    const missing = tiles.filter((t) => !seen.has(tilePath(t)));
    if (missing.length > 0) {
      const fetched = fetch(missing);
      missing.forEach((t, i) =>
        seen.set(
          tilePath(t),
          fetched.then((data) => data[i]!),
        ),
      );
    }
    return Promise.all(tiles.map((t) => seen.get(tilePath(t))!));
  };
}

/** Runs `check`, adding both sizes to what a failing tile check says. */
async function naming<T>(sizes: string, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof MonitorError && error.reason === 'inconsistent_tiles') {
      throw new MonitorError('inconsistent_tiles', `${sizes}: ${String(error.detail)}`);
    }
    throw error;
  }
}

/** Checks that the entries of leaves [from, to) hash to the leaves the verified tiles hold. */
async function checkEntries(
  client: LogClient,
  reader: HashReader,
  from: number,
  to: number,
  sizes: string,
  signal: AbortSignal | undefined,
  places: ChainPlaces,
): Promise<void> {
  for (let t = Math.floor(from / TILE_WIDTH); t * TILE_WIDTH < to; t++) {
    if (signal?.aborted === true) {
      throw new MonitorError('interrupted', `stopped by ${String(signal.reason)} at entry ${t}`);
    }
    const start = t * TILE_WIDTH;
    const width = Math.min(TILE_WIDTH, to - start);
    const first = Math.max(from, start);
    const leaves: number[] = [];
    for (let i = first; i < start + width; i++) leaves.push(i);
    const hashes = await reader(leaves.map((i) => storedHashIndex(0, i)));
    let entries: Buffer[];
    try {
      entries = decodeEntryBundle(await client.entries(t, width));
    } catch (error) {
      if (error instanceof MonitorError) throw error;
      throw new MonitorError('rewritten_entry', `${sizes}: entry bundle ${t} is malformed`);
    }
    if (entries.length !== width) {
      throw new MonitorError(
        'rewritten_entry',
        `${sizes}: entry bundle ${t} has ${entries.length} entries, not ${width}`,
      );
    }
    leaves.forEach((i, k) => {
      if (!hashesEqual(leafHash(entries[i - start]!), hashes[k]!)) {
        throw new MonitorError(
          'rewritten_entry',
          `${sizes}: entry ${i} does not hash to leaf ${i}`,
        );
      }
    });
    for (const i of leaves) await places.check(i, entries[i - start]!, entries);
  }
}

/** One monitor run; throws a {@link MonitorError} naming both sizes when the log misbehaved. */
export async function monitorLog(input: MonitorInput): Promise<MonitorRun> {
  const { client, state } = input;
  const keySource: KeySource =
    input.key !== undefined ? 'given' : state !== undefined ? 'state' : 'fetched';
  const key = input.key ?? state?.key ?? (await client.key());
  const verifier = verifierOf(key);
  const note = await client.checkpoint();
  let size: number;
  let root: Buffer;
  try {
    ({ size, root } = openCheckpoint(note, { origin: verifier.name, log: [verifier] }).checkpoint);
  } catch (error) {
    throw new MonitorError(
      'bad_checkpoint',
      `checkpoint not verified with ${key}: ${String(error)}`,
    );
  }
  const old = state && { size: state.size, root: decodeBase64(state.root)! };
  const sizes = old
    ? `new tree of size ${size}, last verified tree of size ${old.size}`
    : `tree of size ${size} (first run)`;
  if (old && size < old.size) throw new MonitorError('rollback', sizes);
  if (old && size === old.size && !hashesEqual(root, old.root)) {
    throw new MonitorError('fork', `${sizes}: same size, another root`);
  }
  // Entries are checked from where the last run stopped, at most `maxLeaves` (whole tiles) now.
  const from = state?.checked ?? state?.size ?? 0;
  const tiles = Math.max(1, Math.ceil((input.maxLeaves ?? DEFAULT_MAX_LEAVES) / TILE_WIDTH));
  const to = Math.min(size, (Math.floor(from / TILE_WIDTH) + tiles) * TILE_WIDTH);
  const reader = tileHashReader({ size, root }, remembering(client.tiles));
  const places = new ChainPlaces(client, reader, sizes, state?.chained === true);
  await naming(sizes, async () => {
    // The right edge's tiles must hash to the signed root even when nothing was added.
    if (size > 0) await treeHash(size, reader);
    if (old && old.size > 0 && old.size < size) {
      const proof = await proveConsistency(size, old.size, reader);
      if (!checkConsistency(proof, size, root, old.size, old.root)) {
        throw new MonitorError('fork', `${sizes}: the old tree is not a prefix of the new one`);
      }
    }
    await checkEntries(client, reader, from, to, sizes, input.signal, places);
  });
  const now = (input.now ?? (() => new Date()))();
  const checked = to < size ? { checked: to } : {};
  return {
    state: {
      version: 1,
      key,
      size,
      root: encodeBase64(root),
      note,
      ...checked,
      ...(places.chained && { chained: true as const }),
      checkedAt: now.toISOString(),
    },
    previous: state && { size: state.size, root: state.root },
    keySource,
    pending: size - to,
  };
}
