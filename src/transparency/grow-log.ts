/**
 * One growth of the transparency log: the events numbered after the last leaf's feed position that
 * the log takes in (`./pick-leaves.ts`) become leaves, their stored hashes are computed (about two
 * per leaf, `tlog`'s layout) and a checkpoint of the new size is signed; all of it is written only
 * onto the size it was computed from (`LogStore.append`), so a growth computed by two instances at
 * once is written once. Leaf i is the log's own i-th leaf, whatever feed position its event has.
 */
import type { LruCache } from '../lru-cache.js';
import type { LeafRow, LogAppend, LogStore } from '../store/log.js';
import {
  formatCheckpoint,
  leafHash,
  readHashes,
  RightEdge,
  signNoteNow,
  storedHashIndex,
} from '../tlog/index.js';
import type { HashReader, InstantNoteSigner } from '../tlog/index.js';
import { leafEntry } from './leaf-entry.js';
import { pickLeaves } from './pick-leaves.js';
import type { AdmitLeaf } from './pick-leaves.js';

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

/** A growth as written: its leaves, stored hashes and checkpoint. */
export type Growth = LogAppend;

/** What a growth takes candidates in with (`./pick-leaves.ts`). */
export interface Admission {
  readonly admit: AdmitLeaf;
  /** Candidates refused before, by id and hash. */
  readonly refused: LruCache<true>;
}

/** The right edge of the tree of `size` leaves, its stored hashes read (and checked) with `read`. */
export async function readEdge(size: number, read: HashReader): Promise<RightEdge> {
  return RightEdge.of(size, await readHashes(read, RightEdge.indexes(size)));
}

/**
 * Grows the log by the events numbered after its last leaf's (at most `maxLeaves` read), reading
 * the stored tree's right edge with `read`: the growth as written, or undefined when there was
 * nothing to add or another growth was written first.
 */
export async function growLog(
  log: LogStore,
  identity: LogIdentity,
  now: () => number,
  admission: Admission,
  read: HashReader = (indexes) => log.readHashes(indexes),
  maxLeaves = GROWTH_LEAVES,
): Promise<{ growth: Growth | undefined; read: number }> {
  const size = (await log.head())?.size ?? 0;
  const candidates = await log.readCandidates(await log.feedReadAt(size), maxLeaves);
  if (candidates.length === 0) return { growth: undefined, read: 0 };
  const { leaves } = await pickLeaves(
    log,
    candidates,
    size,
    admission.admit,
    new Map(),
    admission.refused,
  );
  const growth = growEdge(await readEdge(size, read), leaves, identity, now);
  const written = growth !== undefined && (await log.append(growth));
  return { growth: written ? growth : undefined, read: candidates.length };
}

/**
 * Grows the tree whose right edge is `edge` (kept in memory: nothing is read) by `leaves` (the
 * leaves that follow it, from index `edge.size` on) and signs its checkpoint: the growth to write,
 * or undefined when there is none. `edge` is grown in place; after a throw it is part grown and
 * must be dropped.
 */
export function growEdge(
  edge: RightEdge,
  leaves: readonly LeafRow[],
  identity: LogIdentity,
  now: () => number,
): Growth | undefined {
  const fromSize = edge.size;
  const stored: Buffer[] = [];
  for (const leaf of leaves) {
    if (leaf.index !== edge.size) break;
    stored.push(...edge.append(leafHash(leafEntry(leaf))));
  }
  const size = edge.size;
  if (size === fromSize) return undefined;
  const root = edge.root();
  const text = formatCheckpoint({ origin: identity.origin, size, root });
  const note = signNoteNow(text, [identity.signer]);
  const first = storedHashIndex(0, fromSize);
  return {
    fromSize,
    leaves: leaves.slice(0, size - fromSize),
    hashes: stored.map((hash, k) => ({ index: first + k, hash })),
    checkpoint: { size, root, note, signedAt: now() },
  };
}
