/**
 * The transparency log of one instance: grows the tree after local appends and, while anyone
 * waits or other instances append, on every look of the feed clock (or, in memory, on a slow
 * timer). Answers the newest checkpoint (with the witnesses' cosignatures) and receipts (C2SP
 * tlog-proof@v1).
 *
 * Growth is one at a time here (a call asked for while one runs is folded into a second run after
 * it). Where the store writes a growth with its next batch of writes (SQLite,
 * `LogStore.appendLater`), the tree grows in memory from its right edge, at most one growth every
 * `growthSpacingMs`: the tree is a function of the numbered events alone, so a receipt may go out
 * before its growth is on disk (a growth lost in a crash is grown again, byte for byte: Ed25519
 * signatures are deterministic). Elsewhere (PostgreSQL) a growth is written before its receipts,
 * onto the size it was computed from (`LogStore.append`), one instance at a time.
 * A receipt waits, at most `receiptWaitMs`, for a checkpoint that includes its event; a mutating
 * answer without one in time carries none (the event is in the log all the same, a moment later,
 * and verify's log check covers it from then on).
 */
import type { LruCache } from '../lru-cache.js';
import type { VerificationMemory } from '../memory/verification-memory.js';
import type { LogCheckpointRow, LogStore } from '../store/log.js';
import type { Store } from '../store/types.js';
import type { RightEdge } from '../tlog/index.js';
import { formatTlogProof, proveInclusion } from '../tlog/index.js';
import { ChainInLog } from './chain-in-log.js';
import type { LoggedEvent } from './chain-in-log.js';
import { GROWTH_LEAVES, growEdge, growLog, readEdge } from './grow-log.js';
import type { Growth, LogIdentity } from './grow-log.js';
import { TreeHashes } from './tree-hashes.js';

export interface TransparencyLogOptions {
  /** Longest wait of a receipt for the checkpoint that includes its event, ms (default 1,000). */
  readonly receiptWaitMs?: number;
  /** While receipts wait, how often growth is tried again (another instance numbers), ms. */
  readonly retryMs?: number;
  /** False: the log is off (`ERX_LOG=off`): nothing grows, no receipt, no check. Default true. */
  readonly enabled?: boolean;
  /** Told of a failed growth; the next append or look tries again. */
  readonly onError?: (error: unknown) => void;
  /**
   * False: every growth is computed from the stored tree and written before its receipts, as on
   * a store without `LogStore.appendLater` (PostgreSQL), even where the store has it. Default true.
   */
  readonly growInMemory?: boolean;
  /**
   * False: no witness is configured, so no receipt's checkpoint can be cosigned yet and the store
   * is not asked for cosignatures. Default true.
   */
  readonly witnessed?: boolean;
  /** In memory: the least time between the starts of two growths after appends, ms (default 10). */
  readonly growthSpacingMs?: number;
}

const DEFAULT_RECEIPT_WAIT_MS = 1_000;
const DEFAULT_RETRY_MS = 25;
const DEFAULT_GROWTH_SPACING_MS = 10;
/** In memory: how often the log looks for events another process numbered, ms. */
const FOREIGN_POLL_MS = 1_000;

/** The log of one instance; ended by {@link close}. */
export class TransparencyLog {
  readonly #store: Store;
  readonly #log: LogStore;
  readonly #identity: LogIdentity;
  readonly #now: () => number;
  readonly #receiptWaitMs: number;
  readonly #retryMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #hashes: TreeHashes;
  readonly #inclusion: ChainInLog;
  /** The newest checkpoint known here. */
  #head: LogCheckpointRow | undefined;
  #growing: Promise<void> | undefined;
  #again = false;
  /** Receipts waiting now, and the positions they asked for in this turn. */
  #waiters = 0;
  readonly #asked = new Map<string, ((position: number | undefined) => void)[]>();
  /** Feed positions by event id of the leaves this instance's growths took in last. */
  readonly #grown: LruCache<number>;
  #retry: NodeJS.Timeout | undefined;
  /** Called whenever a look at the log has ended (a growth, or a newer head seen). */
  readonly #looked = new Set<() => void>();
  #closed: boolean;
  /** The newest checkpoint known to be written. */
  #stored: LogCheckpointRow | undefined;
  /** The tree grows in memory (`LogStore.appendLater`); its right edge, once read. */
  readonly #inMemory: boolean;
  #edge: RightEdge | undefined;
  /** A growth was not written: the edge is read again from the store before the next. */
  #edgeLost = false;
  readonly #spacingMs: number;
  readonly #witnessed: boolean;
  #lastGrowth = -Infinity;
  #spaced: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;

  constructor(
    store: Store,
    identity: LogIdentity,
    now: () => number,
    memory: Pick<VerificationMemory, 'bounds' | 'logEvents' | 'grown'>,
    options: TransparencyLogOptions = {},
  ) {
    this.#grown = memory.grown;
    this.#store = store;
    this.#log = store.log;
    this.#identity = identity;
    this.#now = now;
    this.#receiptWaitMs = options.receiptWaitMs ?? DEFAULT_RECEIPT_WAIT_MS;
    this.#retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.#onError = options.onError ?? (() => undefined);
    // Off is closed from the start: nothing grows and every receipt is none.
    this.#closed = options.enabled === false;
    this.#hashes = new TreeHashes(store.log, memory.bounds.treeHashes);
    this.#inclusion = new ChainInLog(
      store.log,
      this.#hashes.read,
      identity.verifierKey,
      memory.logEvents,
    );
    this.#inMemory =
      !this.#closed && options.growInMemory !== false && store.log.appendLater !== undefined;
    this.#spacingMs = options.growthSpacingMs ?? DEFAULT_GROWTH_SPACING_MS;
    this.#witnessed = options.witnessed !== false;
    if (this.#inMemory) {
      this.#poll = setInterval(() => void this.grow(), FOREIGN_POLL_MS);
      this.#poll.unref();
    }
  }

  /** Whether the tree grows in memory; if not, the feed clock's looks should grow it. */
  get growsInMemory(): boolean {
    return this.#inMemory;
  }

  /** The log's identity (its origin and signer's name). */
  get identity(): LogIdentity {
    return this.#identity;
  }

  /** Grows the log now (after a local append, or when another instance's events were seen). */
  grow(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#growing !== undefined) {
      this.#again = true;
      return this.#growing;
    }
    const run = async (): Promise<void> => {
      try {
        do {
          this.#again = false;
          this.#lastGrowth = this.#now();
          await (this.#inMemory ? this.#growInMemory() : this.#growOnce());
        } while (this.#again && !this.#closed);
      } finally {
        this.#growing = undefined;
        for (const looked of [...this.#looked]) looked();
        // While receipts wait, grow again soon: another instance may number their events.
        if (this.#waiters > 0 && !this.#closed && this.#retry === undefined) {
          this.#retry = setTimeout(() => {
            this.#retry = undefined;
            void this.grow();
          }, this.#retryMs);
        }
      }
    };
    this.#growing = run();
    return this.#growing;
  }

  /** Tells the log of an event appended here: it grows now, or in memory once spaced. */
  appended(): void {
    if (!this.#inMemory) {
      void this.grow();
      return;
    }
    if (this.#closed || this.#spaced !== undefined) return;
    const wait = Math.max(0, this.#lastGrowth + this.#spacingMs - this.#now());
    this.#spaced = setTimeout(() => {
      this.#spaced = undefined;
      void this.grow();
    }, wait);
  }

  /** Takes in a growth computed here: its receipts can be given from now on. */
  #took(growth: Growth): void {
    this.#hashes.remember(growth.hashes);
    for (const leaf of growth.leaves) this.#grown.set(leaf.id, leaf.position);
    if (growth.checkpoint.size > (this.#head?.size ?? 0)) this.#head = growth.checkpoint;
    this.#inclusion.trustOwn(growth.checkpoint);
  }

  /** Knows `checkpoint` to be written. */
  #written(checkpoint: LogCheckpointRow): void {
    if (checkpoint.size > (this.#stored?.size ?? 0)) this.#stored = checkpoint;
  }

  /**
   * Grows the tree from its right edge by the events numbered after it, taking a backlog in
   * growths of {@link GROWTH_LEAVES}; each is written with the store's next batch of writes.
   */
  async #growInMemory(): Promise<void> {
    try {
      for (;;) {
        if (this.#edgeLost) {
          this.#edgeLost = false;
          this.#edge = undefined;
        }
        const edge = this.#edge ?? (await this.#readEdge());
        this.#edge = undefined;
        const leaves = await this.#log.readLeaves(edge.size, GROWTH_LEAVES);
        const grown = growEdge(edge, leaves, this.#identity, this.#now);
        this.#edge = edge;
        if (grown === undefined) return;
        this.#took(grown);
        const written = this.#log.appendLater!(grown).then(
          () => this.#written(grown.checkpoint),
          (error: unknown) => {
            this.#edgeLost = true;
            this.#onError(error);
          },
        );
        // A growth that took fewer than it may took every numbered event: none is left. A full
        // one (a backlog) is written before the next is computed.
        if (grown.leaves.length < GROWTH_LEAVES) return;
        await written;
      }
    } catch (error) {
      this.#edge = undefined;
      this.#onError(error);
    }
  }

  /** The right edge of the newest checkpoint written. */
  async #readEdge(): Promise<RightEdge> {
    return readEdge((await this.#log.head())?.size ?? 0, this.#hashes.read);
  }

  async #growOnce(): Promise<void> {
    try {
      // Only numbered events become leaves; the feed clock numbers them (PostgreSQL), a moment
      // after each append and on its looks. Numbering here too would take the numbering lock
      // from the clock's own look, which would then miss the head's move until its next one.
      for (;;) {
        const grown = await growLog(this.#log, this.#identity, this.#now, this.#hashes.read);
        if (grown === undefined) break;
        this.#written(grown.checkpoint);
        this.#took(grown);
        // A growth that took fewer than it may took every numbered event: none is left.
        if (grown.leaves.length < GROWTH_LEAVES) return;
      }
      const head = await this.#log.head();
      if (head !== undefined && head.size > (this.#head?.size ?? 0)) this.#head = head;
    } catch (error) {
      this.#onError(error);
    }
  }

  /**
   * The index in `events` of the first that the newest checkpoint known here covers but that is
   * not its leaf (`./chain-in-log.ts`), or undefined when all that are covered are.
   */
  async firstNotInLog(events: readonly LoggedEvent[]): Promise<number | undefined> {
    if (this.#closed) return undefined;
    return this.#inclusion.firstNotInLog(events, this.#head ?? (await this.checkpoint()));
  }

  /**
   * The id of the newest event of prescription `prescriptionId`'s chain that the newest checkpoint
   * known here covers, if it is not its leaf (`./chain-in-log.ts`); undefined otherwise.
   */
  async newestNotInLog(prescriptionId: string): Promise<string | undefined> {
    if (this.#closed) return undefined;
    const head = this.#head ?? (await this.checkpoint());
    return (await this.#inclusion.newestNotInLog(prescriptionId, head))?.id;
  }

  /**
   * The newest checkpoint written, read from the store (another instance may have grown the log):
   * every tile of its tree can be served. A receipt may carry a newer one.
   */
  async checkpoint(): Promise<LogCheckpointRow | undefined> {
    const head = await this.#log.head();
    if (head !== undefined) this.#written(head);
    const stored = this.#stored;
    if (stored !== undefined && stored.size > (this.#head?.size ?? 0)) this.#head = stored;
    return stored;
  }

  /** The newest checkpoint's note with the cosignatures the witnesses gave it. */
  async checkpointNote(): Promise<string | undefined> {
    const head = await this.checkpoint();
    if (head === undefined) return undefined;
    const lines = await this.#log.cosignatures(head.size);
    return lines.length === 0 ? head.note : `${head.note}${lines.map((l) => `${l}\n`).join('')}`;
  }

  /**
   * The receipt of event `eventId`: the event's JWS (the tlog-proof's `extra`; read when not
   * given), its inclusion proof in the newest checkpoint that includes it, and that checkpoint,
   * waiting at most the receipt wait for one; undefined when none came in time or there is no
   * such event. The position of an event this instance's growth took in is known from it; others
   * are looked up (those asked for in one turn together), once no growth runs that may take it in.
   */
  async receipt(
    eventId: string,
    jws?: string,
    waitMs = this.#receiptWaitMs,
  ): Promise<string | undefined> {
    if (this.#closed) return undefined;
    const deadline = this.#now() + waitMs;
    const signature = jws ?? (await this.#store.getEvent(eventId))?.signature;
    if (signature === undefined) return undefined;
    this.#waiters += 1;
    try {
      let position: number | undefined;
      let looked = false;
      for (;;) {
        position ??= this.#grown.get(eventId);
        // Asked of the store only once no growth that may take it in is under way or due.
        const due = this.#growing !== undefined || this.#spaced !== undefined;
        if (position === undefined && (looked || !due)) {
          position = await this.#positionOf(eventId);
        }
        const head = this.#head;
        if (position !== undefined && head !== undefined && head.size >= position) {
          return await this.#proof(signature, position - 1, head);
        }
        const left = deadline - this.#now();
        if (left <= 0 || this.#closed) return undefined;
        // In memory, nothing else may grow the log soon (the event was appended elsewhere).
        if (this.#inMemory) this.appended();
        await this.#nextLook(left);
        looked = true;
      }
    } finally {
      this.#waiters -= 1;
    }
  }

  /** The feed position of `eventId`, looked up with every other asked for in the same turn. */
  #positionOf(eventId: string): Promise<number | undefined> {
    return new Promise((resolve) => {
      const asked = this.#asked.get(eventId);
      if (asked === undefined) this.#asked.set(eventId, [resolve]);
      else asked.push(resolve);
      if (this.#asked.size > 1 || (asked !== undefined && asked.length > 1)) return;
      setImmediate(() => {
        const batch = new Map(this.#asked);
        this.#asked.clear();
        const answer = (positions: Map<string, number>): void => {
          for (const [id, resolvers] of batch) for (const r of resolvers) r(positions.get(id));
        };
        this.#log.positions([...batch.keys()]).then(answer, () => answer(new Map()));
      });
    });
  }

  /** The receipt of the event signed by `jws`, leaf `index` in the tree of `head`. */
  async #proof(jws: string, index: number, head: LogCheckpointRow): Promise<string> {
    const proof = await proveInclusion(head.size, index, this.#hashes.read);
    // With the witnesses' cosignatures when they have cosigned this very checkpoint already
    // (rare for a fresh event: witnesses see about one checkpoint a second).
    const lines = this.#witnessed ? await this.#log.cosignatures(head.size) : [];
    const checkpoint = `${head.note}${lines.map((l) => `${l}\n`).join('')}`;
    return formatTlogProof({ extra: Buffer.from(jws), index, proof, checkpoint });
  }

  /** Resolves when a look at the log ends, or after `ms`. */
  #nextLook(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#looked.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#looked.add(done);
    });
  }

  /** Stops growing and lets waiting receipts go without one. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#spaced);
    clearInterval(this.#poll);
    await this.#growing;
    for (const looked of [...this.#looked]) looked();
  }
}
