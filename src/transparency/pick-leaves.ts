/**
 * Which events a growth takes in as leaves, and what each leaf commits to (`./leaf-entry.ts`).
 * Only an event whose hash, signature and link verify becomes a leaf (the service vouches for the
 * events it signed itself, so its own cost no signature check, and a chain whose seal matches
 * vouches for its events' signatures, so another instance's events and events from before a
 * restart cost a chain check, not an ES384 check each); an event whose hash some leaf holds
 * already is not taken again (a logged event keeps its leaf, wherever the feed puts it now). Each
 * leaf names the newest leaf of its chain logged before it, so the public log shows a second leaf
 * for one place of a chain as a leaf that does not follow its predecessor.
 */
import { checkEventHash, checkLink } from '../ledger/index.js';
import type { SignatureCheck } from '../ledger/index.js';
import type { LruCache } from '../lru-cache.js';
import type { LeafRow, LogCandidate, LogStore } from '../store/log.js';
import { chainName } from './leaf-entry.js';

/** Candidates checked between two turns of the event loop. */
const ADMIT_SLICE = 64;

/** Whether the log takes `candidate` in; `predecessor`: the stored hash at the place before it. */
export type AdmitLeaf = (
  candidate: LogCandidate,
  predecessor: string | undefined,
) => Promise<boolean>;

/**
 * Whether `candidate` is, with its signature, in its chain as stored now, and that chain passes
 * every check of SPEC.md §6 but the log's (a matching seal standing for the signatures).
 */
export type ChainVouches = (candidate: LogCandidate) => Promise<boolean>;

/**
 * The admission of an instance: its own events (hash by id, remembered when it signed them) at
 * once; any other only if its body, hash and link verify and its signature does, or its chain
 * vouches for it (`chainVouches`).
 */
export function leafAdmission(
  verifier: SignatureCheck,
  own: LruCache<string>,
  chainVouches?: ChainVouches,
): AdmitLeaf {
  return async (candidate, predecessor) => {
    if (own.get(candidate.id) === candidate.hash) return true;
    const content = checkEventHash(candidate, candidate.prescriptionId);
    if (!content.ok) return false;
    if (checkLink(content.body, candidate.seq, predecessor, candidate) !== undefined) return false;
    if (chainVouches !== undefined && (await chainVouches(candidate))) return true;
    return (await verifier.verify(candidate, content.body)) === undefined;
  };
}

/** What a growth takes from the candidates it read. */
export interface Picked {
  readonly leaves: LeafRow[];
}

/**
 * The leaves of the candidates the log takes in, from index `size` on. `pending`: the newest leaf
 * of each chain that grown leaves not yet written hold (by hex name), updated here; `refused`:
 * candidates refused before (by id and hash), not checked again.
 */
export async function pickLeaves(
  log: LogStore,
  candidates: readonly LogCandidate[],
  size: number,
  admit: AdmitLeaf,
  pending: Map<string, LeafRow>,
  refused: LruCache<true>,
): Promise<Picked> {
  const fresh = candidates.filter((c) => refused.get(`${c.id} ${c.hash}`) !== true);
  if (fresh.length === 0) return { leaves: [] };
  const names = fresh.map((c) => chainName(c.prescriptionId));
  const keys = names.map((n) => n.toString('hex'));
  const [logged, stored] = await Promise.all([
    log.loggedHashes(
      fresh.map((c) => c.hash),
      size,
    ),
    log.newestOfChains(
      names.filter((_, k) => !pending.has(keys[k]!)),
      size,
    ),
  ]);
  const newest = (key: string): LeafRow | undefined => pending.get(key) ?? stored.get(key);
  const leaves: LeafRow[] = [];
  for (const [k, candidate] of fresh.entries()) {
    if (logged.has(candidate.hash)) continue;
    const key = keys[k]!;
    const before = newest(key);
    const predecessor =
      candidate.seq === 0
        ? undefined
        : before?.place === candidate.seq - 1 && before.hash === candidate.parentHash
          ? before.hash
          : await log.eventHashAt(candidate.prescriptionId, candidate.seq - 1);
    // A backlog (a restart, a bulk load) is checked in slices: requests are answered between.
    if (k % ADMIT_SLICE === ADMIT_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
    if (!(await admit(candidate, predecessor))) {
      refused.set(`${candidate.id} ${candidate.hash}`, true);
      continue;
    }
    const leaf: LeafRow = {
      index: size + leaves.length,
      chain: names[k]!,
      place: candidate.seq,
      hash: candidate.hash,
      prev: before?.index,
      eventId: candidate.id,
      feedSeq: candidate.feedSeq,
    };
    leaves.push(leaf);
    pending.set(key, leaf);
    logged.add(candidate.hash);
  }
  return { leaves };
}
