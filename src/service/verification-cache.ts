/**
 * The one cache of verify, created by the runtime and passed down like the store. It remembers
 * two things, each under a key naming everything it depends on, each bounded:
 *
 * - the facts of a link (parse, document `Id`, schema check, medicaments, Ed25519 signature) per
 *   link text and key-ring generation: a link scanned again costs a lookup, not a gunzip, a schema
 *   check and a signature check;
 * - the answers of a verify per link facts (so per link text and key-ring generation) and chain as
 *   read (its store's `snapshot` name, or else a digest of every stored row it was built from),
 *   with their encoded bytes: a counter verifying the same prescription again costs two lookups.
 *   A read the store marks transient (a chain the SQLite store has read once) is not remembered.
 *
 * A changed row, head, key ring or link is another key, so nothing is ever invalidated; entries
 * fall out least recently used first. The trust store and the configuration are fixed for the
 * life of the runtime that owns the cache.
 */
import { createHash } from 'node:crypto';
import { LruCache } from '../lru-cache.js';
import { ownedUtf8 } from '../owned-bytes.js';
import type { ChainRead, ChainState } from '../store/types.js';
import type { LinkFacts } from './link-facts.js';
import type { VerifyFull, VerifyShort } from './types.js';

/** Links remembered: a few KB each, so under 5 MB; more links than answers. */
const DEFAULT_LINKS = 1_024;
/**
 * Bytes of answers remembered, as estimated by {@link answerWeight}: about 300 chains of ten
 * events, the prescriptions being served at the counters (a few more than the SQLite store keeps).
 */
const DEFAULT_ANSWER_BYTES = 16 * 1024 * 1024;

export interface VerificationCacheOptions {
  /** Link facts remembered (entries). */
  readonly links?: number;
  /** Answers remembered (estimated bytes). */
  readonly answerBytes?: number;
}

/** Both variants of the verify answer for one link and one chain as read. */
export interface VerifyAnswers {
  readonly short: VerifyShort;
  /** Built on first use: anonymous verifies never need it. */
  readonly full: () => VerifyFull;
  /**
   * Unix ms from which the answers are no longer true (a lock lapses, the prescription expires);
   * `Infinity` when nothing but a new event changes them.
   */
  readonly until: number;
}

/** A verify answer with its encoding, remembered with it. */
export interface VerifyOutcome {
  readonly answer: VerifyShort | VerifyFull;
  /** The answer's bytes as `encode` makes them; made once per remembered answer. */
  bytes(encode: (answer: VerifyShort | VerifyFull) => string): Buffer;
}

/** An answer made for one call only, as the cache answers a remembered one. */
export function outcomeOf(answer: VerifyShort): VerifyOutcome {
  return { answer, bytes: (encode) => Buffer.from(encode(answer), 'utf8') };
}

/** One remembered answer pair and the bytes of each variant once encoded. */
class AnswerEntry {
  readonly #answers: VerifyAnswers;
  readonly weight: number;
  #short: Buffer | undefined;
  #full: Buffer | undefined;

  constructor(answers: VerifyAnswers, weight: number) {
    this.#answers = answers;
    this.weight = weight;
  }

  /** Whether the answers still hold at `now`. */
  holdsAt(now: number): boolean {
    return now < this.#answers.until;
  }

  outcome(full: boolean): VerifyOutcome {
    const answer = full ? this.#answers.full() : this.#answers.short;
    return {
      answer,
      bytes: (encode) => {
        // Kept for long: a buffer of their own, not a view keeping a shared 8 KiB slab.
        if (full) return (this.#full ??= ownedUtf8(encode(answer)));
        return (this.#short ??= ownedUtf8(encode(answer)));
      },
    };
  }
}

/**
 * About the memory of one answer pair: its bytes hold the chain's texts once more, and its objects
 * about as much again (the signature strings are the rows' own, shared); so twice the rows.
 */
function answerWeight(state: ChainState): number {
  let weight = 2_048;
  for (const event of state.events) weight += 2 * (event.body.length + event.signature.length);
  return weight;
}

/**
 * The identity of a chain as read: the store's snapshot name when it gives one, otherwise a
 * SHA-256 over every field of every row the answer is built from.
 */
export function chainKey({ state, snapshot }: ChainRead): string {
  if (snapshot !== undefined) return `s:${snapshot}`;
  const digest = createHash('sha256');
  const p = state.prescription;
  // Each field tagged and length-prefixed: no two different rows spell the same bytes (a NULL
  // column and the text "null" included).
  const field = (value: string | number | null): void => {
    if (value === null) {
      digest.update('n;');
      return;
    }
    const text = String(value);
    digest.update(`${typeof value === 'number' ? 'i' : 's'}${text.length}:`);
    digest.update(text);
  };
  field(p.id);
  field(p.issuer);
  field(p.issuerActor);
  field(p.issuedAt);
  field(JSON.stringify(p.medicaments));
  field(p.headHash);
  field(p.terms === undefined ? null : `${p.terms.expiresAt}:${p.terms.signature}`);
  for (const e of state.events) {
    field(e.prescriptionId);
    field(e.seq);
    field(e.id);
    field(e.parentHash);
    field(e.body);
    field(e.hash);
    field(e.signature);
  }
  return `d:${digest.digest('base64')}`;
}

/** Link facts as the cache knows them, with a short name for them. */
export interface KnownLink {
  readonly facts: LinkFacts;
  /** Names these facts (one link text under one key-ring generation) within this cache. */
  readonly name: string;
}

/** See the file comment. */
export class VerificationCache {
  readonly #links: LruCache<{ readonly generation: number; readonly known: KnownLink }>;
  readonly #answers: LruCache<AnswerEntry>;
  #names = 0;

  constructor(options: VerificationCacheOptions = {}) {
    this.#links = new LruCache(options.links ?? DEFAULT_LINKS);
    this.#answers = new LruCache(options.answerBytes ?? DEFAULT_ANSWER_BYTES, (e) => e.weight);
  }

  /** The facts of link `text` under key-ring `generation`, read by `read` when not remembered. */
  linkFacts(text: string, generation: number, read: () => LinkFacts): KnownLink {
    const remembered = this.#links.get(text);
    if (remembered !== undefined && remembered.generation === generation) return remembered.known;
    // A new name whenever the facts are read again: answers under an older name are not found.
    const known = { facts: read(), name: `l${++this.#names}` };
    this.#links.set(text, { generation, known });
    return known;
  }

  /**
   * The answer for `link` and the chain as read at time `now`, in the variant with transactions
   * when `full`; built by `build` when not remembered or no longer true.
   */
  async answer(
    link: KnownLink,
    chain: ChainRead,
    full: boolean,
    now: number,
    build: () => Promise<VerifyAnswers>,
  ): Promise<VerifyOutcome> {
    // Built for this call only: the next read of this chain will be named otherwise.
    if (chain.transient === true) return new AnswerEntry(await build(), 0).outcome(full);
    const key = `${link.name}\u0000${chainKey(chain)}`;
    let entry = this.#answers.get(key);
    if (entry === undefined || !entry.holdsAt(now)) {
      entry = new AnswerEntry(await build(), answerWeight(chain.state));
      this.#answers.set(key, entry);
    }
    return entry.outcome(full);
  }

  /** Entries held, for tests and metrics. */
  get size(): { readonly links: number; readonly answers: number } {
    return { links: this.#links.size, answers: this.#answers.size };
  }
}
