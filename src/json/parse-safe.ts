/**
 * The one safe JSON parser of erx (SPEC.md §9): nesting is bounded before anything recursive
 * runs, and prototype-polluting keys are refused the way Fastify refuses them in bodies.
 */
import { reasonedError } from '../errors.js';

/** Deepest JSON nesting erx accepts (SPEC.md §9): `[]` is depth 1, `[[]]` depth 2. */
export const MAX_JSON_DEPTH = 32;

/** Keys refused anywhere in a JSON value (SPEC.md §9, as Fastify's `onProtoPoisoning`/`onConstructorPoisoning`). */
const FORBIDDEN_JSON_KEYS: readonly string[] = Object.freeze(['__proto__', 'constructor']);

/** Why a JSON text or value was refused. */
export type JsonErrorReason = 'too_deep' | 'forbidden_key' | 'bad_json';

const MESSAGES: Readonly<Record<JsonErrorReason, string>> = {
  too_deep: 'JSON is nested too deeply',
  forbidden_key: 'JSON contains a forbidden key (__proto__ or constructor)',
  bad_json: 'Not valid JSON',
};

/** A refused JSON text or value; always `bad_request`, `reason` says why. */
export class JsonError extends reasonedError<JsonErrorReason>('bad_request', MESSAGES) {}

export interface ParseJsonOptions {
  /** Deepest nesting accepted; defaults to {@link MAX_JSON_DEPTH}. */
  maxDepth?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Throws `too_deep` when the text nests objects/arrays deeper than `maxDepth`.
 * One linear pass over the characters, outside string literals only; malformed text is left
 * for `JSON.parse` to refuse.
 */
function scanDepth(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) throw new JsonError('too_deep');
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
}

/** Throws `forbidden_key` if any object in `value` has a forbidden key; explicit stack, no recursion. */
export function checkForbiddenKeys(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    for (const key of Object.keys(current)) {
      if (FORBIDDEN_JSON_KEYS.includes(key)) throw new JsonError('forbidden_key');
      stack.push((current as Record<string, unknown>)[key]);
    }
  }
}

/**
 * Whether `text` holds more than `limit` opening brackets, in strings or not (native searches).
 * Nesting is never deeper than that count, so a text with at most `limit` of them cannot be too
 * deep and needs no depth scan.
 */
function moreOpeningsThan(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/**
 * Whether the parse of `text` may hold a forbidden key. Without a backslash every string of the
 * text stands as it is parsed, so a key can only be forbidden if its word appears literally;
 * with one (`"\u005f_proto__"`) the parsed value is walked.
 */
function mayHoldForbiddenKey(text: string): boolean {
  return text.includes('\\') || FORBIDDEN_JSON_KEYS.some((key) => text.includes(key));
}

/**
 * Parses JSON text safely: depth is checked on the raw text before `JSON.parse`, then any
 * `__proto__`/`constructor` key is refused. Throws {@link JsonError}. Both checks first look at the
 * text with native searches and skip the walk when the text cannot fail it: an event body has a
 * handful of brackets and no escapes, and erx reads many of them (docs/performance.md).
 */
export function parseJsonSafe(text: string, opts: ParseJsonOptions = {}): unknown {
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  if (moreOpeningsThan(text, maxDepth)) scanDepth(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonError('bad_json', error instanceof Error ? error.message : undefined);
  }
  if (mayHoldForbiddenKey(text)) checkForbiddenKeys(value);
  return value;
}
