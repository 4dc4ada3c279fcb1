/**
 * Reading a stored event body back (SPEC.md §7: the stored text is the signed bytes). The text
 * is parsed with the shared safe parser and must be exactly its own canonical form, so one event
 * has one spelling. Pure functions of the text: what is read again is remembered by the caller's
 * verification cache, keyed by what was read.
 */
import { parseJsonSafe } from '../json/index.js';
import { canonicalJson } from './canonical-json.js';
import type { EventBody } from './event.js';
import { validateEventBody } from './validate-event-body.js';

/** Why stored body text was refused. */
export type BodyFailureReason = 'unparseable' | 'not_canonical' | 'invalid_shape';

export type ParsedBody =
  | { readonly ok: true; readonly body: EventBody }
  | { readonly ok: false; readonly reason: BodyFailureReason; readonly problem?: string };

/** The parsed value of `text` and whether it has the shape of an event. */
function readShape(text: string): { value: unknown; shape: ParsedBody } {
  let value: unknown;
  try {
    value = parseJsonSafe(text);
  } catch {
    return { value: undefined, shape: { ok: false, reason: 'unparseable' } };
  }
  const validation = validateEventBody(value);
  return {
    value,
    shape: validation.ok
      ? { ok: true, body: validation.body }
      : { ok: false, reason: 'invalid_shape', problem: validation.problem },
  };
}

/**
 * Parses stored body text with every check, the failures in their order of precedence:
 * unparseable, not canonical, invalid shape. Never throws.
 */
export function parseEventBody(text: string): ParsedBody {
  const { value, shape } = readShape(text);
  if (!shape.ok && shape.reason === 'unparseable') return shape;
  let canonical: string;
  try {
    canonical = canonicalJson(value);
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
  return canonical === text ? shape : { ok: false, reason: 'not_canonical' };
}

/**
 * Parses stored body text for a decision: the shape of an event, without comparing it to its
 * canonical form (the checks of SPEC.md §6 are verify's). Never throws.
 */
export function parseEventShape(text: string): ParsedBody {
  return readShape(text).shape;
}
