/**
 * One `add-checkpoint` call of c2sp.org/tlog-witness: the request body (`old <size>`, the
 * consistency proof one base64 hash a line, a blank line, the signed checkpoint), and the answer
 * read as the spec gives it: 200 with cosignature lines, verified here with the witness's key;
 * 409 with the size the witness last cosigned (`text/x.tlog.size`); anything else a failure.
 */
import { parseDecimal } from '../tlog/checkpoint.js';
import { cosignatureTimestamp, encodeBase64, formatNote, openNote } from '../tlog/index.js';
import type { NoteVerifier } from '../tlog/index.js';
import { withTimeLimit } from '../time-limit.js';

/** What a witness answered to one add-checkpoint. */
export type AddCheckpointAnswer =
  | { readonly kind: 'cosigned'; readonly line: string }
  | { readonly kind: 'conflict'; readonly size: number }
  | { readonly kind: 'failed'; readonly why: string };

/** The largest answer read: a few signature lines, or a size. */
const MAX_ANSWER_BYTES = 16 * 1024;

/** The body of an add-checkpoint request. */
export function addCheckpointBody(
  oldSize: number,
  proof: readonly Uint8Array[],
  note: string,
): string {
  return `old ${oldSize}\n${proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${note}`;
}

/** Reads at most `MAX_ANSWER_BYTES` of an answer's body; undefined when it is longer. */
async function readBody(response: Response): Promise<string | undefined> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.length > MAX_ANSWER_BYTES ? undefined : Buffer.from(bytes).toString('utf8');
}

/**
 * The witness's cosignature line on `note` among the answer's lines, verified with `witness`: the
 * lines are appended to the checkpoint and the note opened with the witness key only (the spec's
 * suggestion), so lines by other keys are ignored and a bad one by this key refuses the answer.
 */
export function cosignatureLine(note: string, answer: string, witness: NoteVerifier): string {
  const opened = openNote(`${note}${answer}`, [witness]);
  const signature = opened.verified[0]!;
  // The spec: the cosignature must not omit its time.
  if (!(cosignatureTimestamp(signature.signature)! > 0)) throw new Error('cosignature time is 0');
  // The line as a note would hold it, from the verified signature (not the answer's spelling).
  return formatNote(opened.text, [signature]).slice(opened.text.length + 1, -1);
}

/** Sends one add-checkpoint to the witness at `prefix` and reads its answer. */
export async function addCheckpoint(
  prefix: string,
  body: string,
  note: string,
  witness: NoteVerifier,
  timeoutMs: number,
): Promise<AddCheckpointAnswer> {
  const { response, text } = await withTimeLimit(timeoutMs, async (signal) => {
    const response = await fetch(`${prefix}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body,
      signal,
    });
    return { response, text: await readBody(response) };
  });
  if (text === undefined) return { kind: 'failed', why: `${response.status}, answer too long` };
  if (response.status === 409) {
    const type = response.headers.get('content-type') ?? '';
    const size = text.endsWith('\n') ? parseDecimal(text.slice(0, -1)) : undefined;
    if (!type.startsWith('text/x.tlog.size') || size === undefined) {
      return { kind: 'failed', why: '409 without a tree size' };
    }
    return { kind: 'conflict', size };
  }
  if (response.status !== 200) {
    return { kind: 'failed', why: `${response.status} ${text.slice(0, 200).trim()}` };
  }
  try {
    return { kind: 'cosigned', line: cosignatureLine(note, text, witness) };
  } catch (error) {
    return { kind: 'failed', why: `no valid cosignature: ${(error as Error).message}` };
  }
}
