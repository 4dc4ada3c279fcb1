/**
 * Adversarial strings for a regular expression: long runs of each character it mentions (and of
 * the usual suspects) that end in a mismatch, repeated prefixes of the words it contains, and
 * alternations of two of its characters. These are the inputs on which a backtracking pattern
 * shows quadratic or exponential time.
 */

const GENERIC = [
  ' ',
  '\t',
  '\n',
  '0',
  '1',
  '9',
  'a',
  'f',
  'z',
  'A',
  'F',
  'Z',
  '/',
  '=',
  '%',
  '-',
  ':',
  '.',
  '+',
  '_',
  '~',
  '&',
  '#',
  '"',
  '\\',
  '\u0000',
  '\u00e9',
  '\ud800',
  '\u{1f48a}',
];

/** `unit` repeated to exactly `n` UTF-16 units. */
export function repeatTo(unit: string, n: number): string {
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}

/** Adversarial strings of about `n` characters for the regex with source `source`. */
export function adversarialInputs(
  source: string,
  n: number,
  near: readonly string[] = [],
): string[] {
  const chars = [...new Set([...source.replace(/[\s]/g, ''), ...GENERIC])].slice(0, 80);
  const words = [...new Set(source.match(/[A-Za-z0-9]{2,}/g) ?? [])].slice(0, 8);
  const out: string[] = [...near];
  for (const c of chars) {
    out.push(repeatTo(c, n), repeatTo(c, n - 1) + '\u0000');
  }
  for (const w of words) {
    out.push(`${w}${repeatTo('a', n)}!`, `${w}${repeatTo('0', n)} `, `${repeatTo(`${w} `, n)}!`);
  }
  for (let i = 0; i + 1 < Math.min(chars.length, 24); i += 2) {
    out.push(repeatTo(`${chars[i]}${chars[i + 1]}`, n) + '\u0000');
  }
  return out;
}
