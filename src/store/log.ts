/**
 * The transparency log's part of the store (`Store.log`, migration 7): the Merkle tree over the
 * events' hashes (leaf i is the event at feed position i + 1), its signed checkpoints and the
 * witnesses' cosignatures. What the tree means and how it is grown is `src/transparency`; here it
 * is only kept. Nothing is ever updated: a tree grows by {@link LogStore.append} onto the size it
 * was read at, so two integrators can never leave a gap or a leaf twice.
 */

/**
 * Checkpoints kept about this far apart, ms: a growth replaces the newest checkpoint when the one
 * kept before it is younger than this (seen from the new one) and no witness cosigned it, so under
 * steady appends the table keeps about one checkpoint a second, not one per growth. A replaced
 * checkpoint was valid all the same (a tree the next one extends); receipts carry their own.
 */
export const KEPT_CHECKPOINT_SPACING_MS = 1_000;

/** A signed checkpoint as kept. */
export interface LogCheckpointRow {
  /** Leaves in the tree. */
  size: number;
  /** The tree's root hash (32 bytes). */
  root: Uint8Array;
  /** The signed note (C2SP tlog-checkpoint), as served. */
  note: string;
  /** When it was signed, unix ms. */
  signedAt: number;
}

/** An event as a leaf: its feed position, its id and its hash (lowercase hex, SPEC.md §7). */
export interface LogLeaf {
  position: number;
  id: string;
  hash: string;
}

/** One growth of the tree: the hashes it stores and the checkpoint of the new size. */
export interface LogAppend {
  /** The size the tree had when the growth was computed; written only if it still has. */
  fromSize: number;
  /** Stored hashes by their stored-hash index (C2SP tlog-tiles / Go sumdb/tlog layout). */
  hashes: readonly { index: number; hash: Uint8Array }[];
  checkpoint: LogCheckpointRow;
}

export interface LogStore {
  /** The newest checkpoint (undefined before the first). */
  head(): Promise<LogCheckpointRow | undefined>;
  /** The checkpoints of sizes above `size`, smallest first, at most `limit`. */
  checkpointsAfter(size: number, limit: number): Promise<LogCheckpointRow[]>;
  /** The stored hashes at `indexes`, in that order; a missing one is an error. */
  readHashes(indexes: readonly number[]): Promise<Uint8Array[]>;
  /** The events at feed positions after `after`, in order, at most `limit`: the next leaves. */
  readLeaves(after: number, limit: number): Promise<LogLeaf[]>;
  /**
   * Writes `growth` in one transaction if the newest checkpoint is still of `fromSize` (one writer
   * at a time); false, with nothing written, if another got there first. The newest checkpoint
   * is dropped if the one before it is younger than {@link KEPT_CHECKPOINT_SPACING_MS} and no
   * witness cosigned it.
   */
  append(growth: LogAppend): Promise<boolean>;
  /**
   * The newest event of prescription `prescriptionId`'s chain at a feed position up to `size` (the
   * newest a checkpoint of that size covers), or undefined.
   */
  newestLogged(prescriptionId: string, size: number): Promise<LogLeaf | undefined>;
  /** The feed positions of the events with these ids that have one. */
  positions(eventIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Where the store can (SQLite, whose writes share one connection's transactions): writes
   * `growth` with the next batch of writes it commits (one is started if none comes soon), after
   * those asked for before it. Its hashes are the tree's own whoever wrote them first; its
   * checkpoint is kept if it is the newest. Rejects, writing nothing, if the stored hashes end
   * before the growth's first, as they do when a growth before it was not written.
   */
  appendLater?(growth: LogAppend): Promise<void>;
  /** Keeps a witness's cosignature line on the checkpoint of `size` (once per witness). */
  addCosignature(size: number, witness: string, line: string): Promise<void>;
  /** The cosignature lines kept on the checkpoint of `size`, by witness name. */
  cosignatures(size: number): Promise<string[]>;
}
