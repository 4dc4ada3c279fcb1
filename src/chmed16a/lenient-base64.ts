/**
 * The `CHMED16A1` data part as other issuers write it, read leniently (SPEC.md §3 "Links erx did
 * not issue"): the URL-safe alphabet as well as the standard one, padding or none, and the text
 * wrapped over lines, each continuation line perhaps starting with the prefix again (the
 * ChTransmissionFormat's serialisation example, `gzip -n | base64 | sed 's/(.*)/CHMED16A1\1/'`,
 * prints it so, as `base64` wraps at 76 characters). No imports: the web page reads links with it
 * too. erx itself only ever writes canonical base64, which `decodeBase64Strict` reads.
 */

const PREFIX = 'chmed16a1';

// ASCII whitespace: a line break, the indent of a wrapped line, a trailing newline.
function isBlank(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

// The prefix again at `start` (ASCII case-insensitive, as the ChTransmissionFormat reads it).
function prefixAt(text: string, start: number): boolean {
  if (start + PREFIX.length > text.length) return false;
  for (let i = 0; i < PREFIX.length; i++) {
    // Setting 0x20 lower-cases an ASCII letter and leaves the digits as they are.
    if ((text.charCodeAt(start + i) | 0x20) !== PREFIX.charCodeAt(i)) return false;
  }
  return true;
}

function isAlphabet(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2b || // +
    code === 0x2f // /
  );
}

/**
 * The canonical (standard alphabet, padded) base64 of the data part `data` (the text after
 * `CHMED16A1`), or undefined when it is not base64 in any of the accepted spellings.
 */
export function lenientBase64(data: string): string | undefined {
  const out: string[] = [];
  let padding = 0;
  let lineStart = false;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (isBlank(code)) {
      if (code === 0x0a || code === 0x0d) lineStart = true;
      continue;
    }
    if (lineStart && padding === 0 && prefixAt(data, i)) {
      lineStart = false;
      i += PREFIX.length - 1;
      continue;
    }
    lineStart = false;
    if (code === 0x3d) {
      padding++;
      if (padding > 2) return undefined;
      continue;
    }
    // Nothing but padding and blanks after the padding.
    if (padding > 0) return undefined;
    if (code === 0x2d) out.push('+');
    else if (code === 0x5f) out.push('/');
    else if (isAlphabet(code)) out.push(data.charAt(i));
    else return undefined;
  }
  const length = out.length;
  if (length === 0 || length % 4 === 1) return undefined;
  // Padding, when written, must be the right amount.
  if (padding > 0 && (length + padding) % 4 !== 0) return undefined;
  return out.join('') + '='.repeat((4 - (length % 4)) % 4);
}
