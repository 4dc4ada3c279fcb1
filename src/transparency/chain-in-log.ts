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
import type { LruCache } from '../lru-cache.js';
import type { LogCheckpointRow, LogLeaf, LogStore } from '../store/log.js';
import {
  checkInclusion,
  ed25519NoteVerifier,
  openNote,
  parseCheckpoint,
  proveInclusion,
} from '../tlog/index.js';
import type { HashReader, NoteVerifier } from '../tlog/index.js';
import { storedEventLeafHash } from './grow-log.js';

/** An event as the check needs it. */
export interface LoggedEvent {
  readonly id: string;
  readonly hash: string;
}

/** The log check with its memo; one per instance. */
export class ChainInLog {
  readonly #log: LogStore;
  readonly #read: HashReader;
  readonly #verifier: NoteVerifier;
  readonly #inLog: LruCache<string>;
  /** The signed root of the newest checkpoint opened, by size. */
  #opened: { size: number; root: Uint8Array } | undefined;

  /**
   * `read`: the tree's stored hashes (`./tree-hashes.ts`); `inLog`: the verification memory's
   * events proved to be leaves, hash by id.
   */
  constructor(log: LogStore, read: HashReader, verifierKey: string, inLog: LruCache<string>) {
    this.#log = log;
    this.#inLog = inLog;
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
   * The index in `events` of the first event that `head` covers but that is not its leaf there,
   * or undefined when there is none (no head: none is covered). A head whose note is not signed by
   * the log key fails the first event.
   */
  async firstNotInLog(
    events: readonly LoggedEvent[],
    head: LogCheckpointRow | undefined,
  ): Promise<number | undefined> {
    const unknown = events.filter((e) => !this.#known(e));
    if (unknown.length === 0 || head === undefined) return undefined;
    const root = this.#signedRoot(head);
    if (root === undefined) return 0;
    const positions = await this.#log.positions(unknown.map((e) => e.id));
    const covered = unknown.flatMap((event) => {
      const position = positions.get(event.id);
      return position !== undefined && position <= head.size ? [{ ...event, position }] : [];
    });
    // Proved together: the hashes they read in one turn are one read (`TreeHashes`).
    const found = await Promise.all(covered.map((leaf) => this.#isLeaf(leaf, head, root)));
    const missing = covered.find((_, k) => !found[k]);
    return missing === undefined ? undefined : events.findIndex((e) => e.id === missing.id);
  }

  /**
   * The newest event of prescription `prescriptionId` that `head` covers, if it is not the leaf
   * at its position (or `head` is not signed by the log key). Each event's hash covers its
   * parent's, so that one leaf binds the whole chain below it: a decision, which checks the
   * chain's hashes and links itself, asks this, not every event.
   */
  async newestNotInLog(
    prescriptionId: string,
    head: LogCheckpointRow | undefined,
  ): Promise<LogLeaf | undefined> {
    if (head === undefined) return undefined;
    const newest = await this.#log.newestLogged(prescriptionId, head.size);
    if (newest === undefined || this.#known(newest)) return undefined;
    const root = this.#signedRoot(head);
    return root !== undefined && (await this.#isLeaf(newest, head, root)) ? undefined : newest;
  }

  #known(event: LoggedEvent): boolean {
    return this.#inLog.get(event.id) === event.hash;
  }

  /** Whether `event` is the leaf at its position in `head`'s tree of root `root` (remembered). */
  async #isLeaf(event: LogLeaf, head: LogCheckpointRow, root: Uint8Array): Promise<boolean> {
    const index = event.position - 1;
    const proof = await proveInclusion(head.size, index, this.#read);
    const leaf = checkInclusion(proof, head.size, root, index, storedEventLeafHash(event.hash));
    if (leaf) this.#inLog.set(event.id, event.hash);
    return leaf;
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
