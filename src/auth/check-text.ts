/** The one rule for text an operator gives a client (names, description, practice address). */
import type { Violation } from '../errors.js';

// Names are shown to people and may hold any letter, but no control characters.
const TEXT = /^[^\p{Cc}]*$/u;

/** Adds a `text_length` violation at `path` unless `value` is `min` to `max` characters of text. */
export function checkText(
  value: string,
  path: string,
  min: number,
  max: number,
  out: Violation[],
): void {
  if (value.trim().length < min || value.length > max || !TEXT.test(value)) {
    out.push({
      path,
      code: 'text_length',
      message: `must be ${min} to ${max} characters without control characters`,
      params: { min, max },
    });
  }
}
