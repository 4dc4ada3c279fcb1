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

/** The log check with its memo; one per instance. */
export class ChainInLog {
  readonly #log: LogStore;
  readonly #verifier: NoteVerifier;
  readonly #inLog = new LruCache<string>(REMEMBERED_EVENTS);
  /** The signed root of the newest checkpoint opened, by size. */
  #opened: { size: number; root: Uint8Array } | undefined;

  constructor(log: LogStore, verifierKey: string) {
    this.#log = log;
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
   * or undefined when there is none (no head: none is covered). A head whose note is not signed
   * by the log key fails the first event.
   */
  async firstNotInLog(
    events: readonly LoggedEvent[],
    head: LogCheckpointRow | undefined,
  ): Promise<number | undefined> {
    const unknown = events.filter((e) => this.#inLog.get(e.id) !== e.hash);
    if (unknown.length === 0 || head === undefined) return undefined;
    const root = this.#signedRoot(head);
    if (root === undefined) return 0;
    const positions = await this.#log.positions(unknown.map((e) => e.id));
    const reader = readOnce(this.#log);
    for (const event of unknown) {
      const position = positions.get(event.id);
      if (position === undefined || position > head.size) continue;
      const index = position - 1;
      const proof = await proveInclusion(head.size, index, reader);
      if (!checkInclusion(proof, head.size, root, index, storedEventLeafHash(event.hash))) {
        return events.indexOf(event);
      }
      this.#inLog.set(event.id, event.hash);
    }
    return undefined;
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

/** A reader that reads each stored hash once per check (the proofs of one chain share most). */
function readOnce(log: LogStore): HashReader {
  const read = new Map<number, Uint8Array>();
  return async (indexes) => {
    const missing = [...new Set(indexes.filter((i) => !read.has(i)))];
    if (missing.length > 0) {
      const hashes = await log.readHashes(missing);
      missing.forEach((index, k) => read.set(index, hashes[k]!));
    }
    return indexes.map((i) => read.get(i)!);
  };
}
