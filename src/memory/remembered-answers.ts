/**
 * What the verification memory keeps of verify: the facts of a link, and the answers of a verify
 * with their encoded bytes. The keys they are kept under are made by `service/verification/verification-cache.ts`.
 */
import { ownedUtf8 } from '../owned-bytes.js';
import type { LinkFacts } from '../service/verification/link-facts.js';
import type { VerifyFull, VerifyShort } from '../service/types.js';
import type { ChainState } from '../store/types.js';

/** Link facts as the memory knows them, with a name for them. */
export interface KnownLink {
  readonly facts: LinkFacts;
  /**
   * Names these facts: a digest of the link text and the key-ring generation it was read under,
   * so the same link read again under the same keys has the same name.
   */
  readonly name: string;
}

/** Link facts kept, with the key-ring generation they were read under. */
export interface RememberedLink {
  readonly generation: number;
  readonly known: KnownLink;
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

/**
 * About the memory of one answer pair: its bytes hold the chain's texts once more, and its objects
 * about as much again (the signature strings are the rows' own, shared); so twice the rows.
 */
export function answerWeight(state: ChainState): number {
  let weight = 2_048;
  for (const event of state.events) weight += 2 * (event.body.length + event.signature.length);
  return weight;
}

/** One remembered answer pair and the bytes of each variant once encoded. */
export class RememberedAnswers {
  readonly #answers: VerifyAnswers;
  /** Estimated bytes held ({@link answerWeight}); the memory's answer map is bounded by it. */
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

  /** The variant with transactions when `full`, else the short one, with its bytes once made. */
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
