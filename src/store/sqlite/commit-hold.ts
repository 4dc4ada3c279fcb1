/**
 * A hold on the writer's COMMITs, shared between the event loop and the checkpoint thread
 * (`./background-checkpoints.ts`) through two integers in shared memory. The thread raises the
 * hold, waits for a batch in progress to commit, copies the last pages of the WAL and lowers it;
 * meanwhile the writer keeps its batch queued and the event loop keeps serving everything else.
 *
 * Which side goes first is settled the way two threads with two flags settle it: each sets its
 * own flag before reading the other's. The writer marks its batch, then reads the hold; the thread
 * raises the hold, then waits until no batch is marked. So either the writer sees the hold and
 * waits, or the thread sees the batch and waits for it: they never both go ahead.
 */

/** Index of the flag the thread raises. */
const HOLD = 0;
/** Index of the flag the writer sets while a batch runs. */
const IN_BATCH = 1;

/** The writer's longest wait on a hold; past it, the batch commits anyway (see {@link CommitHold.enter}). */
export const MAX_HOLD_MS = 100;

/** The event loop's side of the hold. */
export class CommitHold {
  /** Shared with the checkpoint thread (`workerData`). */
  readonly memory = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  readonly #flags = new Int32Array(this.memory);
  /** When the writer first found the hold up, while it has been up since. */
  #heldSince: number | undefined;
  readonly #now: () => number;

  /** `now`: the clock of {@link MAX_HOLD_MS}, ms (default `performance.now`; tests stop it). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /**
   * Marks a batch as running, unless the hold is up: then answers false and the writer tries again
   * shortly. A hold up for {@link MAX_HOLD_MS} is no longer waited for, until it is lowered, so a
   * thread that stalls (or dies) holding it delays writes by that much once; it then only fails to
   * start the WAL over.
   */
  enter(now: number = this.#now()): boolean {
    Atomics.store(this.#flags, IN_BATCH, 1);
    if (Atomics.load(this.#flags, HOLD) === 0) {
      this.#heldSince = undefined;
      return true;
    }
    this.#heldSince ??= now;
    if (now - this.#heldSince >= MAX_HOLD_MS) return true;
    this.leave();
    return false;
  }

  /** The batch has committed (or rolled back): a waiting thread may go ahead. */
  leave(): void {
    Atomics.store(this.#flags, IN_BATCH, 0);
    Atomics.notify(this.#flags, IN_BATCH);
  }
}

/**
 * The thread's side (`./checkpoint-thread.ts`): raises the hold on `memory` (a
 * {@link CommitHold.memory}), waits for a batch in progress to commit, runs `work` and lowers the
 * hold.
 */
export function holdCommits<T>(memory: SharedArrayBuffer, work: () => T): T {
  const flags = new Int32Array(memory);
  Atomics.store(flags, HOLD, 1);
  try {
    while (Atomics.load(flags, IN_BATCH) === 1) Atomics.wait(flags, IN_BATCH, 1, MAX_HOLD_MS);
    return work();
  } finally {
    Atomics.store(flags, HOLD, 0);
  }
}
