/**
 * Checkpoints (c2sp.org/tlog-checkpoint): the note text `<origin>\n<size>\n<base64 root>\n`,
 * optionally followed by non-empty extension lines, formatted and parsed byte for byte.
 */
import { decodeBase64, encodeBase64 } from './base64.js';
import { HASH_SIZE } from './hash.js';
import { TlogError } from './tlog-error.js';
import { isIndex } from './tree-math.js';

/** A tree head as a checkpoint states it. */
export interface Checkpoint {
  /** The log's identity, e.g. `erx.example.ch/log` (non-empty, one line). */
  origin: string;
  /** Number of leaves. */
  size: number;
  /** RFC 6962 root of the first `size` leaves (32 bytes). */
  root: Buffer;
  /** Opaque extension lines (not recommended; erx writes none). */
  extensions?: string[];
}

/** The checkpoint's note text (ending in a newline). */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, root, extensions = [] } = checkpoint;
  if (origin.length === 0 || origin.includes('\n'))
    throw new TlogError('malformed_checkpoint', 'origin');
  if (!isIndex(size)) throw new TlogError('malformed_checkpoint', 'size');
  if (root.length !== HASH_SIZE) throw new TlogError('malformed_checkpoint', 'root');
  if (extensions.some((line) => line.length === 0 || line.includes('\n'))) {
    throw new TlogError('malformed_checkpoint', 'extension line');
  }
  return [origin, String(size), encodeBase64(root), ...extensions].map((l) => `${l}\n`).join('');
}

/** Parses a checkpoint note text (without signatures); throws `malformed_checkpoint`. */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new TlogError('malformed_checkpoint', 'no final newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new TlogError('malformed_checkpoint', 'fewer than three lines');
  const [origin, sizeText, rootText, ...extensions] = lines as [
    string,
    string,
    string,
    ...string[],
  ];
  if (origin.length === 0) throw new TlogError('malformed_checkpoint', 'empty origin');
  const size = parseDecimal(sizeText);
  if (size === undefined)
    throw new TlogError('malformed_checkpoint', 'size is not canonical decimal');
  const root = decodeBase64(rootText);
  if (root === undefined || root.length !== HASH_SIZE) {
    throw new TlogError('malformed_checkpoint', 'root is not base64 of 32 bytes');
  }
  if (extensions.some((line) => line.length === 0)) {
    throw new TlogError('malformed_checkpoint', 'empty extension line');
  }
  return extensions.length > 0 ? { origin, size, root, extensions } : { origin, size, root };
}

/** A canonical ASCII decimal (no sign, no leading zero) as a safe integer, else `undefined`. */
export function parseDecimal(text: string): number | undefined {
  if (text.length === 0 || text.length > 16 || (text.length > 1 && text[0] === '0'))
    return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
