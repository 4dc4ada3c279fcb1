/**
 * What erx's background threads (signing, WAL checkpoints) share: they run below the event loop.
 * On a small machine they share the cores with it; at equal priority a background thread woken by
 * new work preempts the event loop, which then serves nothing (every request waits on it). Below
 * it, they take every cycle the event loop leaves (docs/decisions.md).
 */

/** How much lower than the event loop's a background thread's priority is (Linux nice steps). */
export const BACKGROUND_NICENESS = 10;

/**
 * The first lines of a background worker's code (CommonJS, run with `eval: true`): lower this
 * thread's priority. On Linux the nice value belongs to the thread, so only this thread moves.
 */
export const LOWER_THREAD_PRIORITY = `
if (process.platform === 'linux') {
  const os = require('node:os');
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + ${BACKGROUND_NICENESS}));
  } catch {
    // Lowering one's own priority is always allowed; if it is not here, run at equal priority.
  }
}
`;
