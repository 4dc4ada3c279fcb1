/**
 * Reading a stored event body back (SPEC.md §7: the stored text is the signed bytes). The text
 * is parsed with the shared safe parser and must be exactly its own canonical form, so one event
 * has one spelling.
 *
 * The outcome is a pure function of the text, so it is remembered per text (frozen, shared by
 * every caller) together with the text's SHA-256: re-reading an untouched chain then costs a map
 * lookup per event instead of a parse, a canonicalisation and a hash. Changed text misses.
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
  readonly parsed: ParsedBody;
  readonly hash: string;
}

/**
 * Bodies remembered: with their text and parse about 2 KB each, so about 20 MB; a couple of
 * thousand chains (busy chains are remembered whole by the store besides).
 */
const REMEMBERED_BODIES = 10_000;
const remembered = new LruCache<ReadBody>(REMEMBERED_BODIES);

function parseUncached(text: string): ParsedBody {
  let value: unknown;
  let canonical: string;
  try {
    value = parseJsonSafe(text);
    canonical = canonicalJson(value);
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  if (canonical !== text) return { ok: false, reason: 'not_canonical' };
  const validation = validateEventBody(value);
  if (!validation.ok) return { ok: false, reason: 'invalid_shape', problem: validation.problem };
  return { ok: true, body: validation.body };
}

/** The parse and the SHA-256 of stored body text, remembered together; never throws. */
export function readEventBody(text: string): ReadBody {
  let known = remembered.get(text);
  if (known === undefined) {
    known = deepFreeze({ parsed: parseUncached(text), hash: sha256Hex(text) });
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
  const validation = validateEventBody(parseJsonSafe(text));
  if (!validation.ok) return;
  remembered.set(text, deepFreeze({ parsed: { ok: true, body: validation.body }, hash }));
}

/** Parses stored body text; never throws. The body answered is frozen. */
export function parseEventBody(text: string): ParsedBody {
  return readEventBody(text).parsed;
}
