/**
 * Reading an erx transparency log over HTTP (c2sp.org/tlog-tiles under `<url>/log/`): the
 * checkpoint, the verifier key, tiles and entry bundles, each with a timeout and a size bound on
 * the decoded body, redirects only to the same host (`./bounded-get.ts`), and all of them ended at
 * once by the run's signal (SIGINT, SIGTERM).
 */
import { entryBundlePath, tilePath } from '../tlog/index.js';
import type { Tile } from '../tlog/index.js';
import { MonitorError } from './monitor-error.js';
import type { TileFetcher } from './tile-hash-reader.js';
import { withTimeLimit } from '../time-limit.js';
import { boundedGet } from './bounded-get.js';

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

/**
 * Largest answer read, decoded: a checkpoint with many cosignatures is a few KiB, a tile 8 KiB, an
 * entry bundle 256 entries of a few hundred bytes.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

/** How the client reads: the time limit of one resource and the run's signal. */
export interface LogClientOptions {
  /** Time limit of one resource, its body included, ms (default 10 s). */
  timeoutMs?: number;
  /** Ends every request under way and refuses new ones (`interrupted`). */
  signal?: AbortSignal;
}

/** The run's signal aborted: the run ends as `interrupted`. */
function interrupted(signal: AbortSignal | undefined): MonitorError | undefined {
  if (signal?.aborted !== true) return undefined;
  return new MonitorError('interrupted', `stopped by ${String(signal.reason)}`);
}

/** A {@link LogClient} for the erx at `baseUrl` (its `/log/` resources). */
export function httpLogClient(baseUrl: string, options: LogClientOptions = {}): LogClient {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, signal: run } = options;
  let base = baseUrl;
  while (base.endsWith('/')) base = base.slice(0, -1);
  const prefix = `${base}/log/`;
  const get = async (path: string): Promise<Buffer> => {
    const stopped = interrupted(run);
    if (stopped) throw stopped;
    try {
      return await withTimeLimit(timeoutMs, (signal) => {
        const both = run === undefined ? signal : AbortSignal.any([signal, run]);
        const read = boundedGet(prefix + path, MAX_BODY_BYTES, both);
        if (run === undefined) return read;
        // The run's end is not waited for either: the request is left to its signal.
        let onAbort = (): void => undefined;
        const ended = new Promise<never>((_, reject) => {
          onAbort = () => reject(interrupted(run));
          run.addEventListener('abort', onAbort, { once: true });
        });
        ended.catch(() => undefined);
        return Promise.race([read, ended]).finally(() => run.removeEventListener('abort', onAbort));
      });
    } catch (error) {
      // No answer, or none in time, its body included.
      if (error instanceof MonitorError) throw error;
      throw (
        interrupted(run) ??
        new MonitorError('unreachable', `GET ${prefix}${path}: ${String(error)}`)
      );
    }
  };
  return {
    checkpoint: async () => (await get('checkpoint')).toString('utf8'),
    key: async () => (await get('key')).toString('utf8').trim(),
    tiles: (tiles: readonly Tile[]) => Promise.all(tiles.map((t) => get(tilePath(t)))),
    entries: (index, width) => get(entryBundlePath(index, width)),
  };
}
