/**
 * How catalogue names are searched: case and accents do not matter ("dafal" finds "DAFALGAN",
 * "creme" finds "crème"). Names and queries are folded the same way, here, and the store matches a
 * folded query inside the folded names, so both engines answer alike without collations.
 */

/** U+0300–U+036F, the combining diacritical marks that NFD splits off Latin letters (é → e + ´). */
function isCombiningMark(code: number): boolean {
  return code >= 0x300 && code <= 0x36f;
}

/** White space as `String.prototype.trim` knows it (the ASCII and Unicode spaces, line breaks). */
function isSpace(char: string): boolean {
  return char.trim() === '';
}

/** `text` with each run of white space as one space, trimmed; combining marks left out if `fold`. */
function squeeze(text: string, fold: boolean): string {
  let out = '';
  let space = false;
  for (const char of text) {
    if (isSpace(char)) {
      space = out !== '';
    } else if (!fold || !isCombiningMark(char.codePointAt(0) ?? 0)) {
      if (space) out += ' ';
      space = false;
      out += char;
    }
  }
  return out;
}

/** `text` without accents, in lower case, white space as single spaces, trimmed. */
export function foldForSearch(text: string): string {
  return squeeze(text.normalize('NFD'), true).toLowerCase();
}

/** The stored search text of an article: both names folded, one per line. */
export function searchText(nameDe: string, nameFr: string): string {
  const de = foldForSearch(nameDe);
  const fr = foldForSearch(nameFr);
  return de === fr ? de : `${de}\n${fr}`;
}

/** C0, DEL and C1 control characters. */
function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/** The bidirectional controls: embeddings and overrides, isolates. */
function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/**
 * `text` with white space as single spaces, trimmed (how a name is kept): a control character
 * counts as a space, a bidirectional control is dropped, so no name of the list can rewrite a
 * terminal or show its letters in another order (issue 39).
 */
export function tidyName(text: string): string {
  let plain = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (isControl(code)) plain += ' ';
    else if (!isBidiControl(code)) plain += char;
  }
  return squeeze(plain, false);
}
