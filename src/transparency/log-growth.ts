/**
 * When and how the transparency log grows (`./transparency-log.ts`): one growth at a time (a call
 * asked for while one runs is folded into a second run after it), again soon while receipts wait.
 * Where the store writes a growth with its next batch of writes (`LogStore.appendLater`), the tree
 * grows in memory from its right edge, at most one growth every `spacingMs`, and looks on a slow
 * timer for events another process numbered; elsewhere each growth is computed from the stored
 * tree and written before its receipts.
 */
import type { LeafRow, LogCheckpointRow, LogStore } from '../store/log.js';
import type { HashReader, RightEdge } from '../tlog/index.js';
import { GROWTH_LEAVES, growEdge, growLog, readEdge } from './grow-log.js';
import type { Admission, Growth, LogIdentity } from './grow-log.js';
import { pickLeaves } from './pick-leaves.js';

/** In memory: how often the log looks for events another process numbered, ms. */
const FOREIGN_POLL_MS = 1_000;

/** What the log makes of its growths. */
export interface GrowthSink {
  /** Takes in a growth computed here: its receipts can be given from now on. */
  took(growth: Growth): void;
  /** Knows `checkpoint` to be written. */
  written(checkpoint: LogCheckpointRow): void;
  /** The newest checkpoint the store holds, read after growing from the stored tree. */
  seen(head: LogCheckpointRow): void;
  /** A look at the log has ended (a growth, or a newer head seen). */
  looked(): void;
  /** Whether receipts wait: then growth is tried again soon (another instance may number). */
  waiting(): boolean;
  /** Told of a failed growth; the next append or look tries again. */
  onError(error: unknown): void;
}

/** How a log's growth runs. */
export interface GrowthOptions {
  /** Off from the start: nothing ever grows. */
  readonly closed: boolean;
  /** The tree grows in memory (the store has `LogStore.appendLater`). */
  readonly inMemory: boolean;
  /** In memory: the least time between the starts of two growths after appends, ms. */
  readonly spacingMs: number;
  /** While receipts wait, how often growth is tried again, ms. */
  readonly retryMs: number;
}

/** The growth of one instance's log; ended by {@link close}. */
export class LogGrowth {
  readonly #log: LogStore;
  readonly #identity: LogIdentity;
  readonly #now: () => number;
  readonly #read: HashReader;
  readonly #sink: GrowthSink;
  readonly #options: GrowthOptions;
  #closed: boolean;
  #growing: Promise<void> | undefined;
  #again = false;
  #lastGrowth = -Infinity;
  #retry: NodeJS.Timeout | undefined;
  #spaced: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  /** In memory: the tree's right edge, once read. */
  #edge: RightEdge | undefined;
  /** A growth was not written: the edge is read again from the store before the next. */
  #edgeLost = false;
  /** In memory: the feed position read up to, with the edge. */
  #feedRead = 0;
  /** In memory: the newest leaf of each chain that growths not yet written hold, by hex name. */
  readonly #pending = new Map<string, LeafRow>();
  /** Who decides which events become leaves; none yet: nothing grows. */
  #admission: Admission | undefined;

  constructor(
    log: LogStore,
    identity: LogIdentity,
    now: () => number,
    read: HashReader,
    sink: GrowthSink,
    options: GrowthOptions,
  ) {
    this.#log = log;
    this.#identity = identity;
    this.#now = now;
    this.#read = read;
    this.#sink = sink;
    this.#options = options;
    this.#closed = options.closed;
    if (!this.#closed && options.inMemory) {
      this.#poll = setInterval(() => void this.grow(), FOREIGN_POLL_MS);
      this.#poll.unref();
    }
  }

  /** Sets who decides which events become leaves (the service's verifier, once its keys are read). */
  admitWith(admission: Admission): void {
    this.#admission = admission;
  }

  /** Whether the tree grows in memory. */
  get inMemory(): boolean {
    return this.#options.inMemory;
  }

  /** Whether a growth runs or is due (after an append, spaced). */
  get due(): boolean {
    return this.#growing !== undefined || this.#spaced !== undefined;
  }

  /** Grows the log now (after a local append, or when another instance's events were seen). */
  grow(): Promise<void> {
    if (this.#closed || this.#admission === undefined) return Promise.resolve();
    if (this.#growing !== undefined) {
      this.#again = true;
      return this.#growing;
    }
    const run = async (): Promise<void> => {
      try {
        do {
          this.#again = false;
          this.#lastGrowth = this.#now();
          await (this.inMemory ? this.#growInMemory() : this.#growOnce());
        } while (this.#again && !this.#closed);
      } finally {
        this.#growing = undefined;
        this.#sink.looked();
        // While receipts wait, grow again soon: another instance may number their events.
        if (this.#sink.waiting() && !this.#closed && this.#retry === undefined) {
          this.#retry = setTimeout(() => {
            this.#retry = undefined;
            void this.grow();
          }, this.#options.retryMs);
        }
      }
    };
    this.#growing = run();
    return this.#growing;
  }

  /** Tells of an event appended here: the log grows now, or in memory once spaced. */
  appended(): void {
    if (!this.inMemory) {
      void this.grow();
      return;
    }
    if (this.#closed || this.#spaced !== undefined) return;
    const wait = Math.max(0, this.#lastGrowth + this.#options.spacingMs - this.#now());
    this.#spaced = setTimeout(() => {
      this.#spaced = undefined;
      void this.grow();
    }, wait);
  }

  /**
   * Grows the tree from its right edge by the events numbered after it, taking a backlog in
   * growths of {@link GROWTH_LEAVES}; each is written with the store's next batch of writes.
   */
  async #growInMemory(): Promise<void> {
    const admission = this.#admission!;
    try {
      for (;;) {
        if (this.#edgeLost) {
          this.#edgeLost = false;
          this.#edge = undefined;
          this.#pending.clear();
        }
        const edge = this.#edge ?? (await this.#readEdge());
        this.#edge = undefined;
        const candidates = await this.#log.readCandidates(this.#feedRead, GROWTH_LEAVES);
        const { leaves } = await pickLeaves(
          this.#log,
          candidates,
          edge.size,
          admission.admit,
          this.#pending,
          admission.refused,
        );
        const grown = growEdge(edge, leaves, this.#identity, this.#now);
        this.#edge = edge;
        this.#feedRead = candidates.at(-1)?.feedSeq ?? this.#feedRead;
        if (grown !== undefined) {
          this.#sink.took(grown);
          const written = this.#log.appendLater!(grown).then(
            () => {
              this.#sink.written(grown.checkpoint);
              for (const leaf of grown.leaves) {
                const key = Buffer.from(leaf.chain!).toString('hex');
                if (this.#pending.get(key) === leaf) this.#pending.delete(key);
              }
            },
            (error: unknown) => {
              this.#edgeLost = true;
              this.#sink.onError(error);
            },
          );
          // A full read (a backlog) is written before the next is computed.
          if (candidates.length === GROWTH_LEAVES) await written;
        }
        // A read of fewer than it may read took every numbered event: none is left.
        if (candidates.length < GROWTH_LEAVES) return;
      }
    } catch (error) {
      this.#edge = undefined;
      this.#pending.clear();
      this.#sink.onError(error);
    }
  }

  /** The right edge of the newest checkpoint written. */
  async #readEdge(): Promise<RightEdge> {
    const size = (await this.#log.head())?.size ?? 0;
    this.#feedRead = await this.#log.feedReadAt(size);
    return readEdge(size, this.#read);
  }

  async #growOnce(): Promise<void> {
    try {
      // Only numbered events become leaves; the feed clock numbers them (PostgreSQL), a moment
      // after each append and on its looks. Numbering here too would take the numbering lock
      // from the clock's own look, which would then miss the head's move until its next one.
      for (;;) {
        const grown = await growLog(
          this.#log,
          this.#identity,
          this.#now,
          this.#admission!,
          this.#read,
        );
        if (grown.growth === undefined) break;
        this.#sink.written(grown.growth.checkpoint);
        this.#sink.took(grown.growth);
        // A read of fewer than it may read took every numbered event: none is left.
        if (grown.read < GROWTH_LEAVES) return;
      }
      const head = await this.#log.head();
      if (head !== undefined) this.#sink.seen(head);
    } catch (error) {
      this.#sink.onError(error);
    }
  }

  /** Stops growing; resolves once a growth under way has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#spaced);
    clearInterval(this.#poll);
    await this.#growing;
  }
}
