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

/** See the file comment. */
export class VerificationMemory {
  /** The bounds it was made with; the maps below and the parts that keep their own use them. */
  readonly bounds: MemoryBounds;
  /** Events whose ES384 signature verified or that this instance signed, by body and signature. */
  readonly signatures: LruCache<true>;
  /** Leaf certificate validations by root and leaf bytes (they do not depend on time). */
  readonly leaves: LruCache<Promise<LeafValidation>>;
  /** Prescription terms whose signature verified, by the bytes signed and the signature. */
  readonly terms: LruCache<true>;
  /** Event hashes by id of events proved to be the log's leaf at their position. */
  readonly logEvents: LruCache<string>;
  /** Feed positions by event id of the leaves this instance's growths took in last. */
  readonly grown: LruCache<number>;

  constructor(bounds: MemoryBounds = DEFAULT_MEMORY_BOUNDS) {
    this.bounds = bounds;
    this.signatures = new LruCache(bounds.signatures);
    this.leaves = new LruCache(bounds.leaves);
    this.terms = new LruCache(bounds.terms);
    this.logEvents = new LruCache(bounds.logEvents);
    this.grown = new LruCache(bounds.grown);
  }
}
