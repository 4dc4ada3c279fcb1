/**
 * The chains the SQLite store has read, remembered between reads (a verify at the counter reads
 * the chain it verified a moment ago) from their second read on. A remembered chain is valid while
 * no other connection or process has committed: `PRAGMA data_version` is unchanged. The store's
 * own writes forget the chain they change, or replace it with the chain as committed
 * ({@link ChainMemo.rememberAppended}). Every chain is frozen, so no caller can change what the
 * next one sees, and has a snapshot name: the same name, the same rows.
 */
import { randomUUID } from 'node:crypto';
import { LruCache } from '../../lru-cache.js';
import type { ChainRead, ChainState, EventRow } from '../types.js';

/*
 * Bounds (docs/decisions.md, "One verification memory"): characters of chains remembered between
 * reads (about that many bytes), and chains read once lately, by id: a chain is remembered on its
 * second read within that many others, so a run of chains each read once (a scan) neither pushes
 * out the chains being served again and again nor churns the heap.
 */

/** About the memory a remembered chain holds: its texts and a little for each row. */
function chainWeight({ state }: ChainRead): number {
  let weight = 1_024 + 128 * state.prescription.medicaments.length;
  for (const event of state.events) weight += 256 + event.body.length + event.signature.length;
  return weight;
}

/** A chain shared by every later reader: frozen, so no caller can change what the next one sees. */
function freezeChain(state: ChainState): ChainState {
  for (const event of state.events) Object.freeze(event);
  Object.freeze(state.events);
  for (const medicament of state.prescription.medicaments) Object.freeze(medicament);
  Object.freeze(state.prescription.medicaments);
  Object.freeze(state.prescription);
  return Object.freeze(state);
}

/** A remembered chain an append started from, and the database version it was valid at. */
export interface RememberedRead {
  readonly state: ChainState;
  readonly readAt: number | undefined;
}

/** The remembered chains of one connection (see the file comment). */
export class ChainMemo {
  readonly #chains: LruCache<ChainRead>;
  readonly #readOnce: LruCache<true>;
  #seenVersion: number | undefined;
  /** Snapshot names: unique to this memo, then a counter. */
  readonly #prefix = randomUUID();
  #snapshots = 0;

  /** The bounds come from the configuration (`MemoryBounds.chainChars`, `.readOnce`). */
  constructor(chainChars: number, readOnceIds: number) {
    this.#chains = new LruCache<ChainRead>(chainChars, chainWeight);
    this.#readOnce = new LruCache<true>(readOnceIds);
  }

  /** The database version the remembered chains were read at. */
  get version(): number | undefined {
    return this.#seenVersion;
  }

  /** The chain remembered for `id`, now that the database is at `version`. */
  get(id: string, version: number | undefined): ChainState | undefined {
    return this.read(id, version)?.state;
  }

  /** The chain remembered for `id` with its snapshot name, now that the database is at `version`. */
  read(id: string, version: number | undefined): ChainRead | undefined {
    if (version !== this.#seenVersion) {
      this.#chains.clear();
      this.#seenVersion = version;
    }
    return this.#chains.get(id);
  }

  /**
   * Remembers `state`, read at the version last given to {@link get}, if its chain was read
   * lately before (see {@link READ_ONCE_IDS}); answers it frozen either way.
   */
  remember(id: string, state: ChainState): ChainState {
    return this.rememberRead(id, state).state;
  }

  /** {@link remember}, answering the snapshot name when the chain is remembered. */
  rememberRead(id: string, state: ChainState): ChainRead {
    const frozen = freezeChain(state);
    if (this.#readOnce.get(id) !== true) {
      this.#readOnce.set(id, true);
      return { state: frozen, snapshot: undefined, transient: true };
    }
    this.#readOnce.delete(id);
    const read = { state: frozen, snapshot: this.#nextSnapshot() };
    this.#chains.set(id, read);
    return read;
  }

  forget(id: string): void {
    this.#chains.delete(id);
  }

  /**
   * Remembers the chain an append of this connection has just committed: the remembered `state`
   * with `event` after it. Only while nothing else has committed since `state` was read at
   * `readAt` (`versionNow` answers the version after the COMMIT): then `state` is exactly what the
   * database held, and so is the result. Otherwise the chain stays forgotten and is read anew.
   */
  rememberAppended(
    { state, readAt }: RememberedRead,
    event: EventRow,
    versionNow: () => number | undefined,
  ): void {
    if (readAt === undefined || this.#seenVersion !== readAt || versionNow() !== readAt) return;
    const appended: EventRow = {
      prescriptionId: event.prescriptionId,
      seq: event.seq,
      id: event.id,
      parentHash: event.parentHash,
      body: event.body,
      hash: event.hash,
      signature: event.signature,
    };
    const prescription = { ...state.prescription, headHash: event.hash };
    // It was remembered when read: it stays so without a second read.
    this.#chains.set(prescription.id, {
      state: freezeChain({ prescription, events: [...state.events, appended] }),
      snapshot: this.#nextSnapshot(),
    });
  }

  #nextSnapshot(): string {
    return `${this.#prefix}:${++this.#snapshots}`;
  }
}
