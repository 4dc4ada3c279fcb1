/**
 * Stored text as the CLI prints it: never raw to a terminal. Control characters (C0, DEL, C1),
 * bidirectional controls (U+202A–U+202E, U+2066–U+2069) and line separators become `\uXXXX`
 * escapes, so an `Id`, a name or a reason cannot move the cursor, rewrite a line or reorder what
 * is shown. JSON keeps its meaning: those escapes are JSON's own.
 */

/** Characters never written raw: C0, DEL, C1, bidi controls, U+2028/U+2029. */
// eslint-disable-next-line no-control-regex -- matching control characters is its purpose
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

function escaped(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every unsafe character escaped; line feeds too unless `keepLineFeeds` (a text of
 * several lines, each of them still made safe).
 */
export function terminalText(text: string, keepLineFeeds = false): string {
  return text.replace(UNSAFE, (char) => (keepLineFeeds && char === '\n' ? char : escaped(char)));
}

/**
 * `value` as JSON (indented by `indent`), with what JSON leaves raw in strings (C1, bidi controls,
 * U+2028/U+2029) escaped as well; its own line feeds between values stay.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return terminalText(JSON.stringify(value, null, indent), true);
}
