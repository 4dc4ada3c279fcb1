/**
 * `ERX_LOG_WITNESSES`: the witnesses the log asks for cosignatures (c2sp.org/tlog-witness), as
 * entries `<vkey>=<submission prefix URL>` separated by whitespace or commas. The vkey is the
 * witness's Ed25519 cosignature key (type 0x04, c2sp.org/tlog-cosignature); the URL is https, or
 * http on a loopback address only (a witness beside erx, and tests).
 */
import { ErxError } from '../errors.js';
import { ed25519CosignatureVerifier } from '../tlog/index.js';

/** One witness: its verifier key and the prefix its `add-checkpoint` is under. */
export interface LogWitnessConfig {
  readonly vkey: string;
  /** The submission prefix, without a trailing slash. */
  readonly url: string;
}

const LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

function invalid(why: string): ErxError {
  return new ErxError('bad_request', `configuration: ERX_LOG_WITNESSES ${why}`);
}

function parseEntry(entry: string): LogWitnessConfig {
  // A vkey's base64 may end in `=`: the separator is the `=` right before the scheme.
  const at = Math.max(entry.indexOf('=https://'), entry.indexOf('=http://'));
  if (at <= 0) throw invalid(`entries must be <vkey>=<URL>, got "${entry}"`);
  const vkey = entry.slice(0, at);
  const raw = entry.slice(at + 1);
  try {
    ed25519CosignatureVerifier(vkey);
  } catch {
    throw invalid(`must name Ed25519 cosignature keys (vkey type 0x04), got "${vkey}"`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(`must give absolute URLs, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw invalid(`URLs must be https (http only on a loopback address), got "${raw}"`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw invalid(`URLs must be a plain prefix, got "${raw}"`);
  }
  let href = url.href;
  while (href.endsWith('/')) href = href.slice(0, -1);
  return { vkey, url: href };
}

/** The entries of the list, split at whitespace and commas (no regex: operator input). */
function splitEntries(raw: string): string[] {
  const entries: string[] = [];
  let current = '';
  for (const ch of raw) {
    if (ch === ',' || ch.trim() === '') {
      if (current !== '') entries.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') entries.push(current);
  return entries;
}

/** Parses `ERX_LOG_WITNESSES` (absent or blank: none); a witness named twice is refused. */
export function parseLogWitnesses(raw: string | undefined): readonly LogWitnessConfig[] {
  const entries = splitEntries(raw ?? '');
  const witnesses = entries.map(parseEntry);
  const names = witnesses.map((w) => ed25519CosignatureVerifier(w.vkey).name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw invalid(`names the witness ${twice} twice`);
  return Object.freeze(witnesses.map((w) => Object.freeze(w)));
}
