/**
 * The one verification memory of an instance (docs/decisions.md, "One verification memory"):
 * everything remembered about links, chains, signatures, terms, seals and log proofs, created by
 * the runtime from the configuration's bounds and passed down like the store. The checks that use
 * it are given the part they need; none builds a memo of its own. Every map is bounded (least
 * recently used first out) and keyed by everything its value depends on, so nothing is ever
 * invalidated.
 */
import { DEFAULT_MEMORY_BOUNDS } from '../config/memory-bounds.js';
import type { MemoryBounds } from '../config/memory-bounds.js';
import { LruCache } from '../lru-cache.js';
import type { LeafValidation } from '../pki/index.js';
import type { LeafRow } from '../store/log.js';
import type { RememberedAnswers, RememberedLink } from './remembered-answers.js';

/** See the file comment. */
export class VerificationMemory {
  /**
   * The bounds it was made with: one for each map below, and the SQLite store's two for its own
   * read cache (`ChainMemo`, given them by the configuration).
   */
  readonly bounds: MemoryBounds;
  /** Link facts by link text, with the key-ring generation they were read under. */
  readonly links: LruCache<RememberedLink>;
  /**
   * Verify answers and their bytes, by what they answer: link facts, prescription id, head hash
   * and a digest of the rows (`service/verification/verification-cache.ts`); bounded by estimated bytes.
   */
  readonly answers: LruCache<RememberedAnswers>;
  /**
   * The row digest of a chain state that can no longer change (frozen), by the state itself:
   * a state read again as the same object is not hashed again. Bounded by the states alive.
   */
  readonly chainDigests: WeakMap<object, string>;
  /** Events whose ES384 signature verified or that this instance signed, by body and signature. */
  readonly signatures: LruCache<true>;
  /** Leaf certificate validations by root and leaf bytes (they do not depend on time). */
  readonly leaves: LruCache<Promise<LeafValidation>>;
  /** Prescription terms whose signature verified, by the bytes signed and the signature. */
  readonly terms: LruCache<true>;
  /** Leaf hashes (hex) by index of the log's leaves proved to be in its tree. */
  readonly logEvents: LruCache<string>;
  /** The leaves this instance's growths took in last, by event id. */
  readonly grown: LruCache<LeafRow>;
  /** Hashes by id of the events this instance signed (the log takes them in unchecked). */
  readonly ownEvents: LruCache<string>;
  /** The log tree's stored hashes by index (a stored hash never changes: the tree only grows). */
  readonly treeHashes: LruCache<Uint8Array, number>;

  constructor(bounds: MemoryBounds = DEFAULT_MEMORY_BOUNDS) {
    this.bounds = bounds;
    this.links = new LruCache(bounds.links);
    this.answers = new LruCache(bounds.answerBytes, (entry) => entry.weight);
    this.chainDigests = new WeakMap();
    this.signatures = new LruCache(bounds.signatures);
    this.leaves = new LruCache(bounds.leaves);
    this.terms = new LruCache(bounds.terms);
    this.logEvents = new LruCache(bounds.logEvents);
    this.grown = new LruCache(bounds.grown);
    this.ownEvents = new LruCache(bounds.grown);
    this.treeHashes = new LruCache(bounds.treeHashes);
  }
}
