/**
 * Verify's log check (SPEC.md §6 `logs_check_passed`, docs/transparency.md): every event of a
 * chain that the newest checkpoint covers must be the leaf at its feed position, proved by an
 * inclusion proof up to the checkpoint's signed root. A chain rewritten and re-signed with erx's
 * own keys fails it, since its new hashes are not the leaves the checkpoints signed; an event not
 * yet covered (appended in the last moment, or not yet numbered) is not judged.
 *
 * Events found in the log are remembered (by id and hash, bounded), as the signature memo
 * remembers verified events: a leaf, once covered by a checkpoint, never changes.
 */
import { LruCache } from '../lru-cache.js';
import type { LogCheckpointRow, LogStore } from '../store/log.js';
import {
  checkInclusion,
  ed25519NoteVerifier,
  openNote,
  parseCheckpoint,
  proveInclusion,
} from '../tlog/index.js';
import type { HashReader, NoteVerifier } from '../tlog/index.js';
import { storedEventLeafHash } from './grow-log.js';

/** Events remembered as in the log. */
const REMEMBERED_EVENTS = 200_000;

/** An event as the check needs it. */
export interface LoggedEvent {
  readonly id: string;
  readonly hash: string;
}

/**
 * Which events of a chain a check proves: every one the checkpoint covers (verify's report), or
 * only the newest one it covers (a decision: each event's hash covers its parent's, so that one
 * leaf binds every event below it, and the decision checks the chain's hashes and links itself).
 */
export type LogScope = 'every' | 'newest';

/** The log check with its memo; one per instance. */
export class ChainInLog {
  readonly #log: LogStore;
  readonly #read: HashReader;
  readonly #verifier: NoteVerifier;
  readonly #inLog = new LruCache<string>(REMEMBERED_EVENTS);
  /** The signed root of the newest checkpoint opened, by size. */
  #opened: { size: number; root: Uint8Array } | undefined;

  /** `read`: the tree's stored hashes (`./tree-hashes.ts`). */
  constructor(log: LogStore, read: HashReader, verifierKey: string) {
    this.#log = log;
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
   * The index in `events` (a chain, oldest first) of the first event of `scope` that `head` covers
   * but that is not its leaf there, or undefined when there is none (no head: none is covered). A
   * head whose note is not signed by the log key fails the first event.
   */
  async firstNotInLog(
    events: readonly LoggedEvent[],
    head: LogCheckpointRow | undefined,
    scope: LogScope = 'every',
  ): Promise<number | undefined> {
    const unknown = this.#unknown(events, scope);
    if (unknown.length === 0 || head === undefined) return undefined;
    const root = this.#signedRoot(head);
    if (root === undefined) return 0;
    const positions = await this.#log.positions(unknown.map((e) => e.id));
    const covered = unknown.filter((e) => (positions.get(e.id) ?? Infinity) <= head.size);
    const proved = scope === 'every' ? covered : covered.slice(-1);
    // Proved together: the hashes they read in one turn are one read (`TreeHashes`).
    const found = await Promise.all(
      proved.map(async (event) => {
        const index = positions.get(event.id)! - 1;
        const proof = await proveInclusion(head.size, index, this.#read);
        return checkInclusion(proof, head.size, root, index, storedEventLeafHash(event.hash));
      }),
    );
    const missing = proved.find((_, k) => !found[k]);
    if (missing !== undefined) return events.indexOf(missing);
    for (const event of proved) this.#inLog.set(event.id, event.hash);
    return undefined;
  }

  /** The events of `scope` not remembered as in the log (for `newest`: those above the newest). */
  #unknown(events: readonly LoggedEvent[], scope: LogScope): readonly LoggedEvent[] {
    const known = (e: LoggedEvent): boolean => this.#inLog.get(e.id) === e.hash;
    if (scope === 'every') return events.filter((e) => !known(e));
    let from = events.length;
    while (from > 0 && !known(events[from - 1]!)) from -= 1;
    return events.slice(from);
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
