/**
 * Generic mutations of text and bytes: the random flips, insertions, deletions and splices that
 * turn a valid input into a nearly valid one, where parsers are most likely to slip.
 */
import type { Prng } from './prng.js';

/** Characters that mean something to one of erx's parsers, or to none of them. */
const INTERESTING = [
  '#',
  '&',
  '=',
  '%',
  '+',
  ' ',
  '\t',
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '/',
  '?',
  '\0',
  '\u00e9',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udc00',
  '\u{1f48a}',
  '\u202e',
  'A',
  '0',
  '=',
  '\n',
];

/** One random edit of `text`: flip, insert, delete, duplicate, truncate or swap a slice. */
export function mutateText(rng: Prng, text: string): string {
  const at = rng.int(text.length + 1);
  switch (rng.int(8)) {
    case 0: {
      // Flip one bit of one UTF-16 unit (may make a lone surrogate).
      const code = text.charCodeAt(at) ^ (1 << rng.int(16));
      return text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1);
    }
    case 1:
      return text.slice(0, at) + rng.pick(INTERESTING) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + rng.range(1, 16));
    case 3: {
      const end = Math.min(text.length, at + rng.range(1, 64));
      return text.slice(0, end) + text.slice(at, end) + text.slice(end);
    }
    case 4:
      return text.slice(0, at);
    case 5:
      return text.slice(at) + text.slice(0, at);
    case 6:
      return text.slice(0, at) + String.fromCharCode(rng.int(0x80)) + text.slice(at + 1);
    default:
      return text.slice(0, at) + rng.pick(INTERESTING).repeat(rng.range(2, 300)) + text.slice(at);
  }
}

/** One random edit of `bytes`: flip, insert, delete or truncate. */
export function mutateBytes(rng: Prng, bytes: Buffer): Buffer {
  const at = rng.int(bytes.length + 1);
  switch (rng.int(5)) {
    case 0: {
      const copy = Buffer.from(bytes);
      if (at < copy.length) copy[at] = (copy[at] ?? 0) ^ (1 << rng.int(8));
      return copy;
    }
    case 1:
      return Buffer.concat([bytes.subarray(0, at), rng.bytes(rng.range(1, 8)), bytes.subarray(at)]);
    case 2:
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + rng.range(1, 8))]);
    case 3:
      return bytes.subarray(0, at);
    default: {
      const copy = Buffer.from(bytes);
      if (at < copy.length) copy[at] = rng.int(256);
      return copy;
    }
  }
}

/** Applies `mutateText` 1 to `max` times. */
export function mutateTextTimes(rng: Prng, text: string, max: number): string {
  let out = text;
  for (let n = rng.range(1, max); n > 0; n--) out = mutateText(rng, out);
  return out;
}
