/**
 * The transparency log of one instance: grows the tree after local appends and, while anyone
 * waits or other instances append, on every look of the feed clock (or, in memory, on a slow
 * timer). Answers the newest checkpoint (with the witnesses' cosignatures) and receipts (C2SP
 * tlog-proof@v1).
 *
 * Growth is one at a time here (`./log-growth.ts`). Where the store writes a growth with its next
 * batch of writes (SQLite, `LogStore.appendLater`), the tree grows in memory from its right edge,
 * at most one growth every `growthSpacingMs`: the tree is a function of the numbered events alone,
 * so a receipt may go out before its growth is on disk (a growth lost in a crash is grown again,
 * byte for byte: Ed25519 signatures are deterministic). Elsewhere (PostgreSQL) a growth is written
 * before its receipts, onto the size it was computed from (`LogStore.append`), one instance at a
 * time.
 * A receipt waits, at most `receiptWaitMs`, for a checkpoint that includes its event; a mutating
 * answer without one in time carries none (the event is in the log all the same, a moment later,
 * and verify's log check covers it from then on).
 */
import type { LruCache } from '../lru-cache.js';
import type { VerificationMemory } from '../memory/verification-memory.js';
import type { LeafRow, LogCheckpointRow, LogStore } from '../store/log.js';
import type { Store } from '../store/types.js';
import { formatTlogProof, proveInclusion } from '../tlog/index.js';
import type { SignatureCheck } from '../ledger/index.js';
import { LruCache as Lru } from '../lru-cache.js';
import { ChainInLog, firstContradicted } from './chain-in-log.js';
import type { LoggedEvent, LoggedPlace } from './chain-in-log.js';
import type { Growth, LogIdentity } from './grow-log.js';
import { receiptExtra } from './leaf-entry.js';
import { leafAdmission } from './pick-leaves.js';
import type { AdmitLeaf, ChainVouches } from './pick-leaves.js';
import { LogGrowth } from './log-growth.js';
import { PositionLookup } from './position-lookup.js';
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
/** Candidates refused remembered (by id and hash), so a bad row is not checked at every growth. */
const REFUSED_REMEMBERED = 10_000;

/** The log of one instance; ended by {@link close}. */
export class TransparencyLog {
  readonly #store: Store;
  readonly #log: LogStore;
  readonly #identity: LogIdentity;
  readonly #now: () => number;
  readonly #receiptWaitMs: number;
  readonly #hashes: TreeHashes;
  readonly #inclusion: ChainInLog;
  readonly #growth: LogGrowth;
  readonly #positions: PositionLookup;
  /** The newest checkpoint known here. */
  #head: LogCheckpointRow | undefined;
  /** Receipts waiting now. */
  #waiters = 0;
  /** The leaves this instance's growths took in last, by event id. */
  readonly #grown: LruCache<LeafRow>;
  /** The events this instance signed, hash by id: the log takes them in unchecked. */
  readonly #own: LruCache<string>;
  /** Called whenever a look at the log has ended (a growth, or a newer head seen). */
  readonly #looked = new Set<() => void>();
  #closed: boolean;
  /** The newest checkpoint known to be written. */
  #stored: LogCheckpointRow | undefined;
  readonly #witnessed: boolean;

  constructor(
    store: Store,
    identity: LogIdentity,
    now: () => number,
    memory: Pick<VerificationMemory, 'logEvents' | 'grown' | 'treeHashes' | 'ownEvents'>,
    options: TransparencyLogOptions = {},
  ) {
    this.#grown = memory.grown;
    this.#own = memory.ownEvents;
    this.#store = store;
    this.#log = store.log;
    this.#identity = identity;
    this.#now = now;
    this.#receiptWaitMs = options.receiptWaitMs ?? DEFAULT_RECEIPT_WAIT_MS;
    // Off is closed from the start: nothing grows and every receipt is none.
    this.#closed = options.enabled === false;
    this.#hashes = new TreeHashes(store.log, memory.treeHashes);
    this.#inclusion = new ChainInLog(
      store.log,
      this.#hashes.read,
      identity.verifierKey,
      memory.logEvents,
    );
    this.#positions = new PositionLookup(store.log);
    this.#witnessed = options.witnessed !== false;
    const onError = options.onError ?? (() => undefined);
    const sink = {
      took: (growth: Growth) => this.#took(growth),
      written: (checkpoint: LogCheckpointRow) => this.#written(checkpoint),
      seen: (head: LogCheckpointRow) => {
        if (head.size > (this.#head?.size ?? 0)) this.#head = head;
      },
      looked: () => {
        for (const looked of [...this.#looked]) looked();
      },
      waiting: () => this.#waiters > 0,
      onError,
    };
    this.#growth = new LogGrowth(store.log, identity, now, this.#hashes.read, sink, {
      closed: this.#closed,
      inMemory:
        !this.#closed && options.growInMemory !== false && store.log.appendLater !== undefined,
      spacingMs: options.growthSpacingMs ?? DEFAULT_GROWTH_SPACING_MS,
      retryMs: options.retryMs ?? DEFAULT_RETRY_MS,
    });
  }

  /** Whether the tree grows in memory; if not, the feed clock's looks should grow it. */
  get growsInMemory(): boolean {
    return this.#growth.inMemory;
  }

  /** The log's identity (its origin and signer's name). */
  get identity(): LogIdentity {
    return this.#identity;
  }

  /** Grows the log now (after a local append, or when another instance's events were seen). */
  grow(): Promise<void> {
    return this.#growth.grow();
  }

  /**
   * Sets what checks the signatures of events this instance did not sign before they become
   * leaves (the service's verifier, once its keys are read, and what their chains vouch for);
   * nothing grows before.
   */
  checkSignaturesWith(verifier: SignatureCheck, chainVouches?: ChainVouches): void {
    this.admitWith(leafAdmission(verifier, this.#own, chainVouches));
  }

  /** Sets what decides which events become leaves (`./pick-leaves.ts`). */
  admitWith(admit: AdmitLeaf): void {
    this.#growth.admitWith({ admit, refused: new Lru(REFUSED_REMEMBERED) });
  }

  /**
   * Tells the log of an event appended (and signed) here: it grows now, or in memory once spaced;
   * without one, the log looks for events appended elsewhere.
   */
  appended(event?: { readonly id: string; readonly hash: string }): void {
    if (event !== undefined) this.#own.set(event.id, event.hash);
    this.#growth.appended();
  }

  /** Takes in a growth computed here: its receipts can be given from now on. */
  #took(growth: Growth): void {
    this.#hashes.remember(growth.hashes);
    for (const leaf of growth.leaves) this.#grown.set(leaf.eventId, leaf);
    if (growth.checkpoint.size > (this.#head?.size ?? 0)) this.#head = growth.checkpoint;
    this.#inclusion.trustOwn(growth.checkpoint);
  }

  /** Knows `checkpoint` to be written. */
  #written(checkpoint: LogCheckpointRow): void {
    if (checkpoint.size > (this.#stored?.size ?? 0)) this.#stored = checkpoint;
  }

  /**
   * The index in `events` (one chain, in order) of the first that the log's leaves of its chain
   * contradict, up to the newest checkpoint known here (`./chain-in-log.ts`); undefined if none.
   */
  async firstNotInLog(events: readonly LoggedEvent[]): Promise<number | undefined> {
    const first = events[0];
    if (this.#closed || first === undefined) return undefined;
    return firstContradicted(events, await this.loggedPlaces(first.prescriptionId));
  }

  /** The places the log holds for prescription `prescriptionId`'s chain, each proved or not. */
  async loggedPlaces(prescriptionId: string): Promise<LoggedPlace[]> {
    if (this.#closed) return [];
    return this.#inclusion.logged(prescriptionId, this.#head ?? (await this.checkpoint()));
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
      let leaf: LeafRow | undefined;
      let looked = false;
      for (;;) {
        leaf ??= this.#grown.get(eventId);
        // Asked of the store only once no growth that may take it in is under way or due.
        if (leaf === undefined && (looked || !this.#growth.due)) {
          const position = await this.#positions.positionOf(eventId);
          if (position !== undefined) [leaf] = await this.#log.readLeafRows(position - 1, 1);
        }
        const head = this.#head;
        if (leaf !== undefined && head !== undefined && head.size > leaf.index) {
          return await this.#proof(signature, leaf, head);
        }
        const left = deadline - this.#now();
        if (left <= 0 || this.#closed) return undefined;
        // In memory, nothing else may grow the log soon (the event was appended elsewhere).
        if (this.#growth.inMemory) this.appended();
        await this.#nextLook(left);
        looked = true;
      }
    } finally {
      this.#waiters -= 1;
    }
  }

  /** The receipt of the event signed by `jws`, `leaf` in the tree of `head`. */
  async #proof(jws: string, leaf: LeafRow, head: LogCheckpointRow): Promise<string> {
    const index = leaf.index;
    const proof = await proveInclusion(head.size, index, this.#hashes.read);
    // With the witnesses' cosignatures when they have cosigned this very checkpoint already
    // (rare for a fresh event: witnesses see about one checkpoint a second).
    const lines = this.#witnessed ? await this.#log.cosignatures(head.size) : [];
    const checkpoint = `${head.note}${lines.map((l) => `${l}\n`).join('')}`;
    const extra =
      leaf.chain === null ? Buffer.from(jws) : receiptExtra({ ...leaf, chain: leaf.chain }, jws);
    return formatTlogProof({ extra, index, proof, checkpoint });
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
    await this.#growth.close();
    for (const looked of [...this.#looked]) looked();
  }
}
