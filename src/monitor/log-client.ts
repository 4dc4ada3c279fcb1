/**
 * Reading an erx transparency log over HTTP (c2sp.org/tlog-tiles under `<url>/log/`): the
 * checkpoint, the verifier key, tiles and entry bundles, each with a timeout and a size bound.
 */
import { entryBundlePath, tilePath } from '../tlog/index.js';
import type { Tile } from '../tlog/index.js';
import { MonitorError } from './monitor-error.js';
import type { TileFetcher } from './tile-hash-reader.js';
import { withTimeLimit } from '../time-limit.js';

/** What a monitor reads of a log. */
export interface LogClient {
  /** The newest signed checkpoint note. */
  checkpoint(): Promise<string>;
  /** The verifier key the log serves (trusted on first use only). */
  key(): Promise<string>;
  tiles: TileFetcher;
  /** The entry bundle of level 0 tile `index`, `width` entries. */
  entries(index: number, width: number): Promise<Buffer>;
}

/** Largest answer read: a checkpoint with many cosignatures is a few KiB, a tile 8 KiB. */
const MAX_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

/** A {@link LogClient} for the erx at `baseUrl` (its `/log/` resources). */
export function httpLogClient(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): LogClient {
  let base = baseUrl;
  while (base.endsWith('/')) base = base.slice(0, -1);
  const prefix = `${base}/log/`;
  const get = async (path: string): Promise<Buffer> => {
    try {
      return await withTimeLimit(timeoutMs, (signal) => read(path, signal));
    } catch (error) {
      // No answer, or none in time, its body included.
      if (error instanceof MonitorError) throw error;
      throw new MonitorError('unreachable', `GET ${prefix}${path}: ${String(error)}`);
    }
  };
  const read = async (path: string, signal: AbortSignal): Promise<Buffer> => {
    const response = await fetch(prefix + path, { signal });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new MonitorError('unreachable', `GET ${prefix}${path}: HTTP ${response.status}`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > MAX_BYTES) {
      throw new MonitorError('unreachable', `GET ${prefix}${path}: over ${MAX_BYTES} bytes`);
    }
    return bytes;
  };
  return {
    checkpoint: async () => (await get('checkpoint')).toString('utf8'),
    key: async () => (await get('key')).toString('utf8').trim(),
    tiles: (tiles: readonly Tile[]) => Promise.all(tiles.map((t) => get(tilePath(t)))),
    entries: (index, width) => get(entryBundlePath(index, width)),
  };
}
