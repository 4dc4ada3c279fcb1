/**
 * RFC 8785 (JCS) canonical JSON, the one encoding of a signed event (STYLE.md point 6). The
 * library recurses, so nesting is bounded first (SPEC.md §9: a hostile value nested thousands
 * deep must be refused, not overflow the stack).
 */
import canonicalize from 'canonicalize';
import { ErxError } from '../errors.js';
import { MAX_JSON_DEPTH, checkDepth } from '../json/index.js';

/** Canonical JSON of `value`; throws `bad_request` for values JSON cannot carry or too deep. */
export function canonicalJson(value: unknown): string {
  checkDepth(value, MAX_JSON_DEPTH);
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    // NaN, Infinity, lone surrogates and cycles (RFC 8785 §3.2.2).
    throw new ErxError('bad_request', 'Value has no canonical JSON form', { detail: error });
  }
  if (text === undefined) {
    throw new ErxError('bad_request', 'Value has no canonical JSON form');
  }
  return text;
}
