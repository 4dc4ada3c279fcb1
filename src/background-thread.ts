/**
 * What erx's background threads (signing, WAL checkpoints) share: they run below the event loop,
 * and each runs a module of its own, started the same way from the build and from the sources.
 *
 * On a small machine they share the cores with the event loop; at equal priority a background
 * thread woken by new work preempts the event loop, which then serves nothing (every request waits
 * on it). Below it, they take every cycle the event loop leaves (docs/decisions.md).
 */
import { getPriority, setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/** How much lower than the event loop's a background thread's priority is (Linux nice steps). */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the calling thread's priority by {@link BACKGROUND_NICENESS}: the first thing a background
 * thread does. On Linux the nice value belongs to the thread, so only this thread moves.
 */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(0, Math.min(19, getPriority(0) + BACKGROUND_NICENESS));
  } catch {
    // Lowering one's own priority is always allowed; if it is not here, run at equal priority.
  }
}

/**
 * Registers tsx in a worker thread when erx runs from its sources: Node 20 applies neither the
 * parent's loader hooks nor its `--import tsx` to a worker, so a `.ts` module would not load.
 */
const REGISTER_TSX = new URL('./register-tsx.mjs', import.meta.url);

/**
 * Starts the module `name` (a path relative to the module `base`, without extension) in a worker
 * thread. The module has the extension of `base`: `.js` in the build, `.ts` from the sources.
 */
export function startThread(name: string, base: string, options: WorkerOptions = {}): Worker {
  const extension = extname(fileURLToPath(base));
  const entry = new URL(`${name}${extension}`, base);
  if (extension !== '.ts') return new Worker(entry, options);
  const execArgv = [...(options.execArgv ?? process.execArgv), '--import', REGISTER_TSX.href];
  return new Worker(entry, { ...options, execArgv });
}
