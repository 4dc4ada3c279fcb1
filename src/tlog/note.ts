/**
 * Signed notes (c2sp.org/signed-note): a UTF-8 text ending in a newline, a blank line, and one
 * line `— <key name> <base64(key ID || signature)>` per signature. Parsing is strict; opening
 * verifies every signature by a known key (a bad one refuses the note) and ignores unknown keys.
 */
import { decodeBase64, encodeBase64 } from './base64.js';
import { isKeyName } from './note-key.js';
import { TlogError } from './tlog-error.js';

/** Verifies signatures of one key, identified by name and key ID. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  /** True when `signature` (without the key ID) is valid for the note text `text`. */
  verify(text: Buffer, signature: Buffer): boolean;
}

/** Signs note texts with one key. */
export interface NoteSigner {
  readonly name: string;
  readonly keyId: number;
  /** The signature of the note text (without the key ID). */
  sign(text: Buffer): Uint8Array | Promise<Uint8Array>;
}

/** A note signer whose signature is ready at once. */
export interface InstantNoteSigner extends NoteSigner {
  sign(text: Buffer): Uint8Array;
}

/** One signature line of a note. */
export interface NoteSignature {
  name: string;
  keyId: number;
  /** The signature bytes after the key ID. */
  signature: Buffer;
}

/** A note split into its text and signature lines (nothing verified). */
export interface ParsedNote {
  /** The note text, ending in a newline, without the blank line. */
  text: string;
  signatures: NoteSignature[];
}

/** A note whose signatures by known keys all verified, with at least one of them. */
export interface OpenedNote extends ParsedNote {
  /** The signatures by known keys, in note order, each verified. */
  verified: NoteSignature[];
}

const SIGNATURE_PREFIX = '\u2014 ';
/** Signature lines read at most: the spec asks for at least 16; Go's note package takes 100. */
export const MAX_NOTE_SIGNATURES = 100;

/** True when `text` has no control character but newline and no lone surrogate. */
function isNoteText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x0a) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** Splits a signed note into its text and signature lines; throws `malformed_note`. */
export function parseNote(note: string): ParsedNote {
  if (!isNoteText(note)) throw new TlogError('malformed_note', 'control character or bad UTF-16');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new TlogError('malformed_note', 'no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n')) {
    throw new TlogError('malformed_note', 'no signature, or the last line has no newline');
  }
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES)
    throw new TlogError('malformed_note', 'too many signatures');
  const signatures = lines.map((line, i) => parseSignatureLine(line, i));
  return { text, signatures };
}

function parseSignatureLine(line: string, i: number): NoteSignature {
  if (!line.startsWith(SIGNATURE_PREFIX)) {
    throw new TlogError('malformed_note', `signature line ${i + 1} does not start with an em dash`);
  }
  const rest = line.slice(SIGNATURE_PREFIX.length);
  const space = rest.indexOf(' ');
  const name = space < 0 ? rest : rest.slice(0, space);
  const bytes = space < 0 ? undefined : decodeBase64(rest.slice(space + 1));
  if (!isKeyName(name) || bytes === undefined || bytes.length < 5) {
    throw new TlogError('malformed_note', `signature line ${i + 1} is not name and base64`);
  }
  return { name, keyId: bytes.readUInt32BE(0), signature: bytes.subarray(4) };
}

/** The note for `text` (ending in a newline) with the given signature lines. */
export function formatNote(text: string, signatures: readonly NoteSignature[]): string {
  if (!text.endsWith('\n') || !isNoteText(text)) throw new TlogError('malformed_note', 'text');
  if (signatures.length === 0) throw new TlogError('malformed_note', 'no signature');
  let note = `${text}\n`;
  for (const s of signatures) {
    if (!isKeyName(s.name)) throw new TlogError('malformed_note', 'key name');
    const bytes = Buffer.alloc(4 + s.signature.length);
    bytes.writeUInt32BE(s.keyId >>> 0, 0);
    bytes.set(s.signature, 4);
    note += `${SIGNATURE_PREFIX}${s.name} ${encodeBase64(bytes)}\n`;
  }
  return note;
}

/** Signs `text` with each signer, after the signatures already given (by other keys). */
export async function signNote(
  text: string,
  signers: readonly NoteSigner[],
  existing: readonly NoteSignature[] = [],
): Promise<string> {
  const message = Buffer.from(text, 'utf8');
  const fresh: NoteSignature[] = [];
  for (const signer of signers) fresh.push(signatureOf(signer, await signer.sign(message)));
  return withSignatures(text, existing, fresh);
}

/** {@link signNote} with signers that sign at once (inside a write transaction, say). */
export function signNoteNow(
  text: string,
  signers: readonly InstantNoteSigner[],
  existing: readonly NoteSignature[] = [],
): string {
  const message = Buffer.from(text, 'utf8');
  const fresh = signers.map((signer) => signatureOf(signer, signer.sign(message)));
  return withSignatures(text, existing, fresh);
}

function signatureOf(signer: NoteSigner, signature: Uint8Array): NoteSignature {
  return { name: signer.name, keyId: signer.keyId, signature: Buffer.from(signature) };
}

/** The note of `text` with `fresh`, which replace older signatures by the same keys. */
function withSignatures(
  text: string,
  existing: readonly NoteSignature[],
  fresh: readonly NoteSignature[],
): string {
  const kept = existing.filter((e) => !fresh.some((s) => s.name === e.name && s.keyId === e.keyId));
  return formatNote(text, [...kept, ...fresh]);
}

/**
 * Parses `note` and verifies the signatures of the known keys among `verifiers`: throws
 * `bad_signature` when one of them does not verify, `unverified_note` when none signed.
 */
export function openNote(note: string, verifiers: readonly NoteVerifier[]): OpenedNote {
  const parsed = parseNote(note);
  const message = Buffer.from(parsed.text, 'utf8');
  const verified: NoteSignature[] = [];
  const seen = new Set<NoteVerifier>();
  for (const s of parsed.signatures) {
    const matches = verifiers.filter((v) => v.name === s.name && v.keyId === s.keyId >>> 0);
    if (matches.length > 1) throw new TlogError('malformed_key', `two verifiers for ${s.name}`);
    const verifier = matches[0];
    // Unknown keys are ignored; a key's repeated signature line counts once, as in Go's note.
    if (verifier === undefined || seen.has(verifier)) continue;
    seen.add(verifier);
    if (!verifier.verify(message, s.signature)) {
      throw new TlogError('bad_signature', `signature by ${s.name} does not verify`);
    }
    verified.push(s);
  }
  if (verified.length === 0) throw new TlogError('unverified_note');
  return { ...parsed, verified };
}
