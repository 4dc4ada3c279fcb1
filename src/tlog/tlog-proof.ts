/**
 * The text form of c2sp.org/tlog-proof@v1, erx's receipt: header, optional `extra` line,
 * `index <n>`, the inclusion proof one base64 hash per line, a blank line, then the signed
 * checkpoint verbatim. The parser is strict and says which line is wrong (in `detail`).
 */
import { decodeBase64, encodeBase64 } from './base64.js';
import { parseCheckpoint, parseDecimal } from './checkpoint.js';
import { HASH_SIZE } from './hash.js';
import { parseNote } from './note.js';
import { TlogError } from './tlog-error.js';
import { isIndex } from './tree-math.js';

/** The first line of every v1 proof. */
export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
/** A tree of at most 2^63 leaves has at most 63 proof hashes. */
const MAX_PROOF_HASHES = 63;

/** A parsed tlog proof; `checkpoint` is the signed note as it appeared (not yet verified). */
export interface TlogProof {
  /** Opaque, unauthenticated extra data, when the proof carries some. */
  extra?: Buffer;
  /** Zero-based index of the leaf. */
  index: number;
  /** Inclusion proof hashes, from the leaf's sibling up. */
  proof: Buffer[];
  /** The signed checkpoint note. */
  checkpoint: string;
}

/** The proof's text. */
export function formatTlogProof(proof: TlogProof): string {
  if (!isIndex(proof.index)) throw new TlogError('malformed_proof', 'index');
  if (proof.proof.some((h) => h.length !== HASH_SIZE))
    throw new TlogError('malformed_proof', 'hash');
  if (proof.extra !== undefined && proof.extra.length === 0)
    throw new TlogError('malformed_proof', 'extra');
  parseNote(proof.checkpoint);
  const lines = [TLOG_PROOF_HEADER];
  if (proof.extra !== undefined) lines.push(`extra ${encodeBase64(proof.extra)}`);
  lines.push(`index ${proof.index}`, ...proof.proof.map((h) => encodeBase64(h)), '');
  return `${lines.join('\n')}\n${proof.checkpoint}`;
}

function fail(line: number, what: string): never {
  throw new TlogError('malformed_proof', `line ${line}: ${what}`);
}

/** Parses a proof; throws `malformed_proof` (or the checkpoint's and note's parse errors). */
export function parseTlogProof(text: string): TlogProof {
  const blank = text.indexOf('\n\n');
  if (blank < 0) fail(1, 'no blank line before the checkpoint');
  const lines = text.slice(0, blank).split('\n');
  const checkpoint = text.slice(blank + 2);
  if (lines[0] !== TLOG_PROOF_HEADER) fail(1, `not ${TLOG_PROOF_HEADER}`);
  let at = 1;
  let extra: Buffer | undefined;
  if (lines[at]?.startsWith('extra ')) {
    extra = decodeBase64(lines[at]!.slice('extra '.length));
    if (extra === undefined || extra.length === 0) fail(at + 1, 'extra is not base64');
    at++;
  }
  const indexLine = lines[at] ?? '';
  const index = indexLine.startsWith('index ') ? parseDecimal(indexLine.slice(6)) : undefined;
  if (index === undefined) fail(at + 1, 'not "index <decimal>"');
  at++;
  const proof: Buffer[] = [];
  for (; at < lines.length; at++) {
    const hash = decodeBase64(lines[at]!);
    if (hash === undefined || hash.length !== HASH_SIZE) fail(at + 1, 'not a base64 SHA-256 hash');
    proof.push(hash);
  }
  if (proof.length > MAX_PROOF_HASHES) fail(at, 'too many proof hashes');
  parseCheckpoint(parseNote(checkpoint).text);
  return extra === undefined ? { index, proof, checkpoint } : { extra, index, proof, checkpoint };
}
