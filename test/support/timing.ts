/**
 * Measures that do not depend on the machine's speed or load, for tests that prove a cost: a
 * ratio against a baseline measured in the same run, or how a cost grows from size n to 4n. A
 * fixed bound in milliseconds fails on a slow or busy machine and proves little on a fast one.
 */

/** How many times slower a call on 4n may be than on n: linear costs about 4, quadratic 16. */
export const LINEAR_GROWTH = 8;

/** The CPU time this process spends on `run`, in ms: time it waits for a busy core is not counted. */
export function cpuMs(run: () => unknown): number {
  const started = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1_000;
}

/**
 * The best of `runs` measures of `run`'s CPU time, in ms (see {@link cpuMs}): a machine shared
 * with other processes preempts a long measure more often than a short one, which made linear
 * costs look superlinear in wall-clock time; and a pause of the process's own (a collection) does
 * not recur, a real cost does.
 */
export function bestMs(run: () => unknown, runs = 5): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, cpuMs(run));
  return best;
}

/** The best of `runs` wall-clock timings of the promise `run` answers, in ms. */
export async function bestMsAsync(run: () => Promise<unknown>, runs = 5): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

const passes = new Map<number, string>();

/**
 * This machine's time, now, for one linear pass over `n` characters (`encodeURIComponent`, best
 * of five): a unit that slows down with the machine, so a bound in units holds on a fast idle
 * machine and on a slow busy one alike.
 */
export function linearPassMs(n: number): number {
  let text = passes.get(n);
  if (text === undefined) passes.set(n, (text = 'x'.repeat(n)));
  const input = text;
  return bestMs(() => encodeURIComponent(input));
}

/**
 * How many times slower `run(4n)` is than `run(n)`, each the best of five batches of enough calls
 * to take a measurable time: about 4 for a linear cost, 16 for a quadratic one, less when a fixed
 * cost dominates. Compare with {@link LINEAR_GROWTH}.
 */
export function growth(run: (n: number) => unknown, n: number): number {
  run(n);
  run(4 * n);
  const once = bestMs(() => run(n), 3);
  const calls = Math.min(1_000, Math.max(1, Math.ceil(2 / Math.max(once, 0.001))));
  const batch = (size: number) => () => {
    for (let i = 0; i < calls; i++) run(size);
  };
  return bestMs(batch(4 * n)) / bestMs(batch(n));
}
