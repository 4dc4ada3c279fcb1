/**
 * Verify's and every decision's log check (SPEC.md §6 `logs_check_passed`, docs/transparency.md):
 * every leaf the log holds for a chain's name, up to the newest checkpoint, must be the chain's
 * event at that leaf's place. A chain rewritten and re-signed with erx's own keys fails it (the
 * leaves of its old events say other hashes at their places), and so does a truncated one (a leaf
 * names a place the chain no longer has), and so does a chain whose logged events were given other
 * feed positions (a logged event keeps its position).
 *
 * The leaves at the chain's newest logged place are proved by an inclusion proof up to the
 * checkpoint's signed root, so a leaf row edited in the database to hide a rewrite fails. The
 * older leaves are compared, not proved: each event names its parent's hash, so a chain whose
 * event at the newest logged place is the proved leaf's holds exactly the events logged below it,
 * and an older leaf row edited can only contradict the chain (refuse it), never hide an edit. One
 * proof per check, whatever the chain's length (docs/decisions.md "The log proves a chain's newest
 * leaf"). Leaves of other chains are never read: no chain is judged by another's.
 *
 * Leaves proved are remembered (by index, bounded): a leaf, once covered by a checkpoint, never
 * changes.
 */
import type { LruCache } from '../lru-cache.js';
import type { LeafRow, LogCheckpointRow, LogStore } from '../store/log.js';
import {
  checkInclusion,
  ed25519NoteVerifier,
  leafHash,
  openNote,
  parseCheckpoint,
  proveInclusion,
} from '../tlog/index.js';
import type { HashReader, NoteVerifier } from '../tlog/index.js';
import { chainName, leafEntry } from './leaf-entry.js';

/** An event as the log's checks need it. */
export interface LoggedEvent {
  readonly id: string;
  readonly prescriptionId: string;
  readonly hash: string;
}

/**
 * A place of a chain as the log holds it; `proved` false: the leaf, one at the chain's newest
 * logged place, is not the tree's (older leaves are not proved one by one: see the file's TSDoc);
 * `kept` false: the event the log took in there is no longer at the feed position the log read it
 * at (moved, or gone).
 */
export interface LoggedPlace {
  readonly place: number;
  readonly hash: string;
  readonly proved: boolean;
  readonly kept: boolean;
}

/**
 * The index in `events` (a chain, in order) of the first event the log's `leaves` of its name
 * contradict: a leaf at a place whose event has another hash, a leaf that is not the tree's, a
 * leaf whose event left the feed position it was logged from, or a leaf at a place beyond the
 * chain's end (then its last event); undefined when none does.
 */
export function firstContradicted(
  events: readonly { readonly hash: string }[],
  leaves: readonly LoggedPlace[],
): number | undefined {
  let first: number | undefined;
  for (const leaf of leaves) {
    const holds = leaf.proved && leaf.kept && events[leaf.place]?.hash === leaf.hash;
    if (holds) continue;
    const at = Math.min(leaf.place, events.length - 1);
    first = first === undefined ? at : Math.min(first, at);
  }
  return first;
}

/** The log check with its memo; one per instance. */
export class ChainInLog {
  readonly #log: LogStore;
  readonly #read: HashReader;
  readonly #verifier: NoteVerifier;
  readonly #proved: LruCache<string>;
  /** The signed root of the newest checkpoint opened, by size. */
  #opened: { size: number; root: Uint8Array } | undefined;

  /**
   * `read`: the tree's stored hashes (`./tree-hashes.ts`); `proved`: the verification memory's
   * leaves proved to be in the tree, leaf hash (hex) by index.
   */
  constructor(log: LogStore, read: HashReader, verifierKey: string, proved: LruCache<string>) {
    this.#log = log;
    this.#proved = proved;
    this.#read = read;
    this.#verifier = ed25519NoteVerifier(verifierKey);
  }

  /**
   * Takes `head`'s root as signed without opening its note: this instance computed and signed it
   * a moment ago (opening every new head again would cost a signature check per growth).
   */
  trustOwn(head: LogCheckpointRow): void {
    this.#opened = { size: head.size, root: head.root };
  }

  /**
   * The places the log holds for prescription `prescriptionId`'s chain in `head`'s tree, those at
   * its newest place proved to be the tree's leaves (none without a head). A head whose note is
   * not signed by the log key proves none of them.
   */
  async logged(prescriptionId: string, head: LogCheckpointRow | undefined): Promise<LoggedPlace[]> {
    if (head === undefined) return [];
    const leaves = await this.#log.chainLeaves(chainName(prescriptionId), head.size);
    if (leaves.length === 0) return [];
    const root = this.#signedRoot(head);
    const newest = Math.max(...leaves.map((leaf) => leaf.place));
    // Two leaves at the newest place (a fork) are both proved, in one turn: the hashes they read
    // together are one read (`TreeHashes`).
    const proved = await Promise.all(
      leaves.map((leaf) =>
        leaf.place < newest ? true : root !== undefined && this.#isLeaf(leaf, head, root),
      ),
    );
    return leaves.map((leaf, k) => ({
      place: leaf.place,
      hash: leaf.hash,
      proved: proved[k]!,
      kept: leaf.feedSeqNow === leaf.feedSeq,
    }));
  }

  /** Whether `leaf` is the leaf at its index in `head`'s tree of root `root` (remembered). */
  async #isLeaf(leaf: LeafRow, head: LogCheckpointRow, root: Uint8Array): Promise<boolean> {
    const hash = leafHash(leafEntry(leaf));
    const hex = hash.toString('hex');
    if (this.#proved.get(String(leaf.index)) === hex) return true;
    const proof = await proveInclusion(head.size, leaf.index, this.#read);
    const holds = checkInclusion(proof, head.size, root, leaf.index, hash);
    if (holds) this.#proved.set(String(leaf.index), hex);
    return holds;
  }

  /** The root `head`'s note signs, if its signature is the log key's and it states `head`'s size. */
  #signedRoot(head: LogCheckpointRow): Uint8Array | undefined {
    if (this.#opened?.size === head.size) return this.#opened.root;
    try {
      const checkpoint = parseCheckpoint(openNote(head.note, [this.#verifier]).text);
      if (checkpoint.size !== head.size) return undefined;
      this.#opened = { size: head.size, root: checkpoint.root };
      return checkpoint.root;
    } catch {
      return undefined;
    }
  }
}
