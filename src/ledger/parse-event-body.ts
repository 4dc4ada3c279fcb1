/**
 * Reading a stored event body back (SPEC.md §7: the stored text is the signed bytes). The text
 * is parsed with the shared safe parser and must be exactly its own canonical form, so one event
 * has one spelling.
 *
 * The outcome is a pure function of the text, so it is remembered per text (frozen, shared by
 * every caller) together with the text's SHA-256: re-reading an untouched chain then costs a map
 * lookup per event instead of a parse, a canonicalisation and a hash. Changed text misses. A
 * decision (dispense, lock…) needs only the parsed shape, so the canonical comparison and the hash,
 * two thirds of the cost of a body never read before, are made when first asked for.
 */
import { deepFreeze, parseJsonSafe } from '../json/index.js';
import { canonicalJson } from './canonical-json.js';
import type { EventBody } from './event.js';
import { sha256Hex } from './hash.js';
import { LruCache } from '../lru-cache.js';
import { validateEventBody } from './validate-event-body.js';

/** Why stored body text was refused. */
export type BodyFailureReason = 'unparseable' | 'not_canonical' | 'invalid_shape';

export type ParsedBody =
  | { readonly ok: true; readonly body: EventBody }
  | { readonly ok: false; readonly reason: BodyFailureReason; readonly problem?: string };

/** A body text read once: its parse and its hash. */
export interface ReadBody {
  /** The full check: parses, is its own canonical form, has the shape of an event. */
  readonly parsed: ParsedBody;
  /** Parses and has the shape of an event; canonical form not compared (see the file comment). */
  readonly shape: ParsedBody;
  readonly hash: string;
}

/**
 * Bodies remembered: with their text and parse about 2 KB each, so about 10 MB; several hundred
 * chains, more than the store remembers whole (docs/performance.md: each memo's size is paid in
 * peak RSS, about twice over once V8 leaves room for garbage).
 */
const REMEMBERED_BODIES = 5_000;
const remembered = new LruCache<ReadBody>(REMEMBERED_BODIES);

/** One body text; the shape at once, the canonical comparison and the hash when first read. */
class BodyText implements ReadBody {
  readonly #text: string;
  readonly #value: unknown;
  readonly shape: ParsedBody;
  #parsed: ParsedBody | undefined;
  #hash: string | undefined;

  constructor(text: string, known?: { readonly hash: string }) {
    this.#text = text;
    let value: unknown;
    let shape: ParsedBody;
    try {
      value = parseJsonSafe(text);
      const validation = validateEventBody(value);
      shape = validation.ok
        ? { ok: true, body: validation.body }
        : { ok: false, reason: 'invalid_shape', problem: validation.problem };
    } catch {
      shape = { ok: false, reason: 'unparseable' };
    }
    this.#value = value;
    this.shape = deepFreeze(shape);
    // Text erx has just written is canonical by construction, and its hash is known.
    if (known !== undefined) {
      this.#parsed = this.shape;
      this.#hash = known.hash;
    }
  }

  get parsed(): ParsedBody {
    this.#parsed ??= this.#check();
    return this.#parsed;
  }

  get hash(): string {
    this.#hash ??= sha256Hex(this.#text);
    return this.#hash;
  }

  /** The failures in their order of precedence: unparseable, not canonical, invalid shape. */
  #check(): ParsedBody {
    if (!this.shape.ok && this.shape.reason === 'unparseable') return this.shape;
    let canonical: string;
    try {
      canonical = canonicalJson(this.#value);
    } catch {
      return deepFreeze({ ok: false, reason: 'unparseable' });
    }
    return canonical === this.#text
      ? this.shape
      : deepFreeze({ ok: false, reason: 'not_canonical' });
  }
}

/** The parse and the SHA-256 of stored body text, remembered together; never throws. */
export function readEventBody(text: string): ReadBody {
  let known = remembered.get(text);
  if (known === undefined) {
    known = new BodyText(text);
    remembered.set(text, known);
  }
  return known;
}

/**
 * Remembers body text erx has just written, with its hash, so the next read of the chain finds
 * it. `text` comes from {@link canonicalJson} of a validated body, so it is canonical by
 * construction: only the parse and the shape check run here, not the canonical comparison.
 */
export function rememberWrittenBody(text: string, hash: string): void {
  remembered.set(text, new BodyText(text, { hash }));
}

/** Parses stored body text with every check; never throws. The body answered is frozen. */
export function parseEventBody(text: string): ParsedBody {
  return readEventBody(text).parsed;
}

/**
 * Parses stored body text for a decision: the shape of an event, without comparing it to its
 * canonical form (the checks of SPEC.md §6 are verify's); never throws. The body is frozen.
 */
export function parseEventShape(text: string): ParsedBody {
  // Used if remembered, never added: a body read for a decision is mostly read once (a
  // prescription is dispensed now and then), and remembering each would only turn the memo over.
  // Bodies erx writes, and bodies verify reads, are the ones read again.
  return (remembered.get(text) ?? new BodyText(text)).shape;
}
