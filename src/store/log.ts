/**
 * The transparency log's part of the store (`Store.log`, migrations 7 and 8): the Merkle tree, the
 * leaves it holds as they were taken in (docs/transparency.md), its signed checkpoints and the
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

/** An event the log may take in: read from the feed after the position of its last leaf. */
export interface LogCandidate {
  feedSeq: number;
  id: string;
  prescriptionId: string;
  seq: number;
  parentHash: string | null;
  body: string;
  hash: string;
  signature: string;
}

/** A leaf as the log took it in (migration 8): what its entry commits to, and its event. */
export interface LeafRow {
  /** The leaf's index in the tree. */
  index: number;
  /** The chain's one-way name (32 bytes); null for a leaf logged before chained entries. */
  chain: Uint8Array | null;
  /** The event's place in its chain (0: create). */
  place: number;
  /** The event's hash (lowercase hex, SPEC.md §7). */
  hash: string;
  /** The index of the chain's leaf logged before it; undefined for none. */
  prev: number | undefined;
  eventId: string;
  /** The feed position the event was read at. */
  feedSeq: number;
}

/** A leaf of one chain, with where its event stands in the feed now. */
export interface ChainLeafRow extends LeafRow {
  /**
   * The feed position of the event with the leaf's `eventId` now; undefined when no such event
   * is stored (or it is not numbered). A logged event keeps the position the log read it at.
   */
  feedSeqNow: number | undefined;
}

/** An event as the audit compares it with the leaf that names it or its feed position. */
export interface LeafEvent {
  id: string;
  prescriptionId: string;
  seq: number;
  hash: string;
  /** Its feed position; undefined while not numbered. */
  feedSeq: number | undefined;
  /** Whether its prescription is stored (a row of none is a ghost). */
  live: boolean;
}

/**
 * The events with ids among `$ids` and those at feed positions among `$seqs` (each once), with
 * whether their prescription is stored; the list parameters as each engine spells them.
 */
export function leafEventsSql(ids: string, seqs: string): string {
  const columns = `SELECT e.id, e.prescription_id AS "prescriptionId", e.seq, e.hash,
    e.feed_seq AS "feedSeq", p.id IS NOT NULL AS live
    FROM events e LEFT JOIN prescriptions p ON p.id = e.prescription_id`;
  return `${columns} WHERE e.id IN ${ids} UNION ${columns} WHERE e.feed_seq IN ${seqs}`;
}

/** An event row of {@link leafEventsSql} as either engine reads it. */
export function toLeafEvent(
  r: Omit<LeafEvent, 'feedSeq' | 'live'> & {
    feedSeq: number | string | null;
    live: boolean | number;
  },
): LeafEvent {
  return {
    id: r.id,
    prescriptionId: r.prescriptionId,
    seq: r.seq,
    hash: r.hash,
    feedSeq: r.feedSeq === null ? undefined : Number(r.feedSeq),
    live: Boolean(r.live),
  };
}

/** A leaf's row as either engine reads it (PostgreSQL's bigints as text). */
export interface LeafRecord {
  idx: number | string;
  chain: Uint8Array | null;
  place: number;
  hash: string;
  prev: number | string | null;
  event_id: string;
  feed_seq: number | string;
}

/** The columns of {@link LeafRecord}. */
export const LEAF_COLUMNS = 'idx, chain, place, hash, prev, event_id, feed_seq';

/**
 * The leaves of chain `$chain` below index `$size`, oldest first, each with its event's feed
 * position now (`feed_seq_now`); the parameters as each engine names them.
 */
export function chainLeavesSql(chain: string, size: string): string {
  const leaf = LEAF_COLUMNS.split(', ')
    .map((c) => `l.${c}`)
    .join(', ');
  return `SELECT ${leaf}, e.feed_seq AS feed_seq_now FROM log_leaves l
    LEFT JOIN events e ON e.id = l.event_id
    WHERE l.chain = ${chain} AND l.idx < ${size} ORDER BY l.idx`;
}

/** A chain's leaf as read ({@link chainLeavesSql}). */
export function toChainLeafRow(
  r: LeafRecord & { feed_seq_now: number | string | null },
): ChainLeafRow {
  return {
    ...toLeafRow(r),
    feedSeqNow: r.feed_seq_now === null ? undefined : Number(r.feed_seq_now),
  };
}

/** A leaf as read. */
export function toLeafRow(r: LeafRecord): LeafRow {
  return {
    index: Number(r.idx),
    chain: r.chain,
    place: r.place,
    hash: r.hash,
    prev: r.prev === null ? undefined : Number(r.prev),
    eventId: r.event_id,
    feedSeq: Number(r.feed_seq),
  };
}

/** The values of `leaves` by column, for a bulk insert. */
export function leafColumns(leaves: readonly LeafRow[]): unknown[][] {
  return [
    leaves.map((l) => l.index),
    leaves.map((l) => (l.chain === null ? null : Buffer.from(l.chain))),
    leaves.map((l) => l.place),
    leaves.map((l) => l.hash),
    leaves.map((l) => l.prev ?? null),
    leaves.map((l) => l.eventId),
    leaves.map((l) => l.feedSeq),
  ];
}

/** One growth of the tree: its leaves, the hashes it stores and the checkpoint of the new size. */
export interface LogAppend {
  /** The leaves it adds, from index `fromSize` on. */
  leaves: readonly LeafRow[];
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
  /** The events at feed positions after `after`, in order, at most `limit`: the next candidates. */
  readCandidates(after: number, limit: number): Promise<LogCandidate[]>;
  /** The leaves from index `from` on, in order, at most `limit` (fewer where none is stored). */
  readLeafRows(from: number, limit: number): Promise<LeafRow[]>;
  /** The feed position the last leaf of the tree of `size` leaves was read at (0: none). */
  feedReadAt(size: number): Promise<number>;
  /** The newest leaf of each of these chains (by hex name) below index `size`. */
  newestOfChains(chains: readonly Uint8Array[], size: number): Promise<Map<string, LeafRow>>;
  /** The event hashes among `hashes` that some leaf below index `size` holds. */
  loggedHashes(hashes: readonly string[], size: number): Promise<Set<string>>;
  /** Every leaf of chain `chain` below index `size`, oldest first, with its event's position now. */
  chainLeaves(chain: Uint8Array, size: number): Promise<ChainLeafRow[]>;
  /**
   * The events with these ids and those at these feed positions, each once, with whether their
   * prescription is stored: what `erx audit verify` compares each leaf with.
   */
  leafEvents(eventIds: readonly string[], feedSeqs: readonly number[]): Promise<LeafEvent[]>;
  /** The hash of the event at place `seq` of prescription `prescriptionId`'s chain, if stored. */
  eventHashAt(prescriptionId: string, seq: number): Promise<string | undefined>;
  /**
   * Writes `growth` in one transaction (its leaves over any row left at their indexes beyond the
   * tree, as a restore of the checkpoints alone leaves them) if the newest checkpoint is still of `fromSize` (one writer
   * at a time); false, with nothing written, if another got there first. The newest checkpoint
   * is dropped if the one before it is younger than {@link KEPT_CHECKPOINT_SPACING_MS} and no
   * witness cosigned it.
   */
  append(growth: LogAppend): Promise<boolean>;
  /** The leaf index + 1 of each event with these ids that the log holds. */
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
