/**
 * One growth of the transparency log: the events numbered since the newest checkpoint become
 * leaves, in feed order, their stored hashes are computed (about two per leaf, `tlog`'s layout)
 * and a checkpoint of the new size is signed; all of it is written only onto the size it was
 * computed from (`LogStore.append`), so a growth computed by two instances at once is written once.
 */
import { isSha256Hex } from '../ledger/hash.js';
import type { LogAppend, LogLeaf, LogStore } from '../store/log.js';
import {
  eventLeafHash,
  formatCheckpoint,
  leafHash,
  readHashes,
  RightEdge,
  signNoteNow,
  storedHashIndex,
} from '../tlog/index.js';
import type { HashReader, InstantNoteSigner } from '../tlog/index.js';

/** Who signs the log's checkpoints, under which origin. */
export interface LogIdentity {
  /** The checkpoint's first line (`ERX_LOG_ORIGIN`). */
  readonly origin: string;
  readonly signer: InstantNoteSigner;
  /** The signer's verifier key, C2SP note form (`GET /log/key`). */
  readonly verifierKey: string;
}

/** Leaves one growth takes at most, so a backlog is written in transactions of bounded size. */
export const GROWTH_LEAVES = 10_000;

/**
 * The leaf hash of an event as stored: over the 32 raw bytes of its hash; a stored hash that is
 * not 64 hex digits (an edited row) goes in as the bytes it is, so the log keeps growing and
 * verify reports the chain (SPEC.md §7).
 */
export function storedEventLeafHash(eventHash: string): Buffer {
  return isSha256Hex(eventHash) ? eventLeafHash(eventHash) : leafHash(Buffer.from(eventHash));
}

/** A growth as written: its stored hashes and checkpoint, and the events it took in as leaves. */
export interface Growth extends LogAppend {
  readonly leaves: readonly LogLeaf[];
}

/** The right edge of the tree of `size` leaves, its stored hashes read (and checked) with `read`. */
export async function readEdge(size: number, read: HashReader): Promise<RightEdge> {
  return RightEdge.of(size, await readHashes(read, RightEdge.indexes(size)));
}

/**
 * Grows the log by the events numbered after its newest checkpoint (at most `maxLeaves`), reading
 * the stored tree's right edge with `read`: the growth as written, or undefined when there was
 * nothing to add or another growth was written first.
 */
export async function growLog(
  log: LogStore,
  identity: LogIdentity,
  now: () => number,
  read: HashReader = (indexes) => log.readHashes(indexes),
  maxLeaves = GROWTH_LEAVES,
): Promise<Growth | undefined> {
  const size = (await log.head())?.size ?? 0;
  const leaves = await log.readLeaves(size, maxLeaves);
  if (leaves[0]?.position !== size + 1) return undefined;
  const growth = growEdge(await readEdge(size, read), leaves, identity, now);
  return growth !== undefined && (await log.append(growth)) ? growth : undefined;
}

/**
 * Grows the tree whose right edge is `edge` (kept in memory: nothing is read) by the leaves that
 * follow it in `leaves` (the events numbered after it, in feed order), and signs its checkpoint:
 * the growth to write, or undefined when none follows. `edge` is grown in place; after a throw it
 * is part grown and must be dropped.
 */
export function growEdge(
  edge: RightEdge,
  leaves: readonly LogLeaf[],
  identity: LogIdentity,
  now: () => number,
): Growth | undefined {
  const fromSize = edge.size;
  const stored: Buffer[] = [];
  for (const leaf of leaves) {
    // Positions have no gaps; one that skips is not the next leaf (never on a numbered feed).
    if (leaf.position !== edge.size + 1) break;
    stored.push(...edge.append(storedEventLeafHash(leaf.hash)));
  }
  const size = edge.size;
  if (size === fromSize) return undefined;
  const root = edge.root();
  const text = formatCheckpoint({ origin: identity.origin, size, root });
  const note = signNoteNow(text, [identity.signer]);
  const first = storedHashIndex(0, fromSize);
  return {
    fromSize,
    hashes: stored.map((hash, k) => ({ index: first + k, hash })),
    checkpoint: { size, root, note, signedAt: now() },
    leaves: leaves.slice(0, size - fromSize),
  };
}
