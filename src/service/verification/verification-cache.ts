/**
 * The verify cache: how verify finds what the verification memory remembers for it, under keys
 * naming everything each value depends on.
 *
 * - the facts of a link (parse, document `Id`, schema check, medicaments, Ed25519 signature) per
 *   link text and key-ring generation: a link scanned again costs a lookup, not a gunzip, a schema
 *   check and a signature check;
 * - the answers of a verify by what they answer: the link facts (so the link text and key-ring
 *   generation), the prescription id, its head hash and a digest of every stored row the answer is
 *   built from, with their encoded bytes: a counter verifying the same prescription again costs two
 *   lookups. The key is the rows' own, whichever store read them and however it names its reads.
 *
 * A changed row, head, key ring or link is another key, so nothing is ever invalidated; entries
 * fall out least recently used first. The trust store and the configuration are fixed for the
 * life of the runtime that owns the memory.
 */
import { createHash } from 'node:crypto';
import { RememberedAnswers, answerWeight } from '../../memory/remembered-answers.js';
import type { KnownLink, VerifyAnswers, VerifyOutcome } from '../../memory/remembered-answers.js';
import type { VerificationMemory } from '../../memory/verification-memory.js';
import type { ChainState } from '../../store/types.js';
import type { LinkFacts } from './link-facts.js';

export { outcomeOf } from '../../memory/remembered-answers.js';
export type { KnownLink, VerifyAnswers, VerifyOutcome } from '../../memory/remembered-answers.js';

/** A SHA-256 over every field of every row an answer is built from. */
function rowDigest(state: ChainState): string {
  // Each field tagged and length-prefixed: no two different rows spell the same text (a NULL
  // column and the text "null" included). One text, hashed in one call: a verify at scale reads
  // a chain nobody holds frozen and digests it every time.
  const parts: string[] = [];
  const field = (value: string | number | null): void => {
    if (value === null) {
      parts.push('n;');
      return;
    }
    const text = String(value);
    parts.push(`${typeof value === 'number' ? 'i' : 's'}${text.length}:`, text);
  };
  const p = state.prescription;
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
  return createHash('sha256').update(parts.join('')).digest('base64');
}

/** Whether `state` can no longer change: it, its prescription and its events are frozen. */
function unchangeable(state: ChainState): boolean {
  return (
    Object.isFrozen(state) &&
    Object.isFrozen(state.prescription) &&
    Object.isFrozen(state.events) &&
    state.events.every((event) => Object.isFrozen(event))
  );
}

/**
 * What a chain's answers answer to: the prescription id, its head hash and a digest of the rows.
 * The digest of a state that cannot change is kept with it in `digests`.
 */
export function chainKey(state: ChainState, digests?: WeakMap<object, string>): string {
  const known = digests?.get(state);
  const digest = known ?? rowDigest(state);
  if (known === undefined && digests !== undefined && unchangeable(state)) {
    digests.set(state, digest);
  }
  const p = state.prescription;
  return `${p.id}\u0000${p.headHash}\u0000${digest}`;
}

/** The name of link `text`'s facts under key-ring `generation`: the same text, the same name. */
function linkName(text: string, generation: number): string {
  return `${generation}:${createHash('sha256').update(text).digest('base64')}`;
}

/** The parts of the verification memory verify uses. */
export type VerifyMemory = Pick<VerificationMemory, 'links' | 'answers' | 'chainDigests'>;

/** See the file comment. */
export class VerificationCache {
  readonly #memory: VerifyMemory;

  constructor(memory: VerifyMemory) {
    this.#memory = memory;
  }

  /** The facts of link `text` under key-ring `generation`, read by `read` when not remembered. */
  linkFacts(text: string, generation: number, read: () => LinkFacts): KnownLink {
    const remembered = this.#memory.links.get(text);
    if (remembered !== undefined && remembered.generation === generation) return remembered.known;
    const known = { facts: read(), name: linkName(text, generation) };
    this.#memory.links.set(text, { generation, known });
    return known;
  }

  /**
   * The answer for `link` and the chain `state` at time `now`, in the variant with transactions
   * when `full`; built by `build` when not remembered or no longer true.
   */
  async answer(
    link: KnownLink,
    state: ChainState,
    full: boolean,
    now: number,
    build: () => Promise<VerifyAnswers>,
  ): Promise<VerifyOutcome> {
    const key = `${link.name}\u0000${chainKey(state, this.#memory.chainDigests)}`;
    const answers = this.#memory.answers;
    let entry = answers.get(key);
    if (entry === undefined || !entry.holdsAt(now)) {
      entry = new RememberedAnswers(await build(), answerWeight(state));
      answers.set(key, entry);
    }
    return entry.outcome(full);
  }

  /** Entries held, for tests and metrics. */
  get size(): { readonly links: number; readonly answers: number } {
    return { links: this.#memory.links.size, answers: this.#memory.answers.size };
  }
}
